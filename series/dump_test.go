package series

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/series/resp"
)

// dump is every key of a Redis database in a canonical text: its type and
// content (hash fields, set members, stream entries sorted where Redis
// gives no order), binary bytes escaped, and whether it has a time to live.
func dump(t testing.TB, c resp.Client) map[string]string {
	t.Helper()
	ctx := context.Background()
	var keys []string
	for cursor := "0"; ; {
		r, err := c.Do(ctx, "SCAN", cursor, "MATCH", "*", "COUNT", "10000")
		if err != nil || len(r.Elems) != 2 {
			t.Fatalf("SCAN: %+v %v", r, err)
		}
		cursor, _ = r.Elems[0].Text()
		keys = append(keys, r.Elems[1].Strings()...)
		if cursor == "0" {
			break
		}
	}
	out := map[string]string{}
	const chunk = 2000
	for lo := 0; lo < len(keys); lo += chunk {
		ks := keys[lo:min(lo+chunk, len(keys))]
		var cmds [][]string
		for _, k := range ks {
			cmds = append(cmds, []string{"TYPE", k}, []string{"TTL", k})
		}
		tt, err := c.Pipeline(ctx, cmds)
		if err != nil {
			t.Fatal(err)
		}
		cmds = cmds[:0]
		for i, k := range ks {
			switch tt[2*i].Str {
			case "string":
				cmds = append(cmds, []string{"GET", k})
			case "hash":
				cmds = append(cmds, []string{"HGETALL", k})
			case "set":
				cmds = append(cmds, []string{"SMEMBERS", k})
			case "zset":
				cmds = append(cmds, []string{"ZRANGE", k, "0", "-1", "WITHSCORES"})
			case "stream":
				cmds = append(cmds, []string{"XRANGE", k, "-", "+"})
			default:
				cmds = append(cmds, []string{"TYPE", k})
			}
		}
		vals, err := c.Pipeline(ctx, cmds)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range ks {
			var lines []string
			v := vals[i]
			if err := v.Err(); err != nil {
				t.Fatalf("%s: %v", k, err)
			}
			typ := tt[2*i].Str
			switch typ {
			case "string":
				lines = []string{q(v.Str)}
			case "hash":
				for f, x := range v.StringMap() {
					lines = append(lines, q(f)+"="+q(x))
				}
				sort.Strings(lines)
			case "set":
				for _, x := range v.Strings() {
					lines = append(lines, q(x))
				}
				sort.Strings(lines)
			case "zset":
				for m, sc := range v.StringMap() {
					f, _ := strconv.ParseFloat(sc, 64)
					lines = append(lines, fmt.Sprintf("%s:%v", q(m), f))
				}
				sort.Strings(lines)
			case "stream":
				for _, e := range v.Elems {
					var fs []string
					for f, x := range e.Elems[1].StringMap() {
						fs = append(fs, q(f)+"="+q(x))
					}
					sort.Strings(fs)
					lines = append(lines, e.Elems[0].Str+" "+strings.Join(fs, " "))
				}
			}
			out[k] = typ + fmt.Sprintf(" ttl=%v\n", tt[2*i+1].Int > 0) + strings.Join(lines, "\n")
		}
	}
	return out
}

func q(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] >= 0x7f {
			return "x" + fmt.Sprintf("%x", s)
		}
	}
	return strconv.Quote(s)
}
