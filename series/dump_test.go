package series

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// dump is every key of a Redis database in a canonical text: its type and
// content (hash fields, set members, stream entries sorted where Redis
// gives no order), binary bytes escaped, and whether it has a time to live.
func dump(t testing.TB, c *redis.Client) map[string]string {
	t.Helper()
	ctx := context.Background()
	var keys []string
	iter := c.Scan(ctx, 0, "*", 10000).Iterator()
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	const chunk = 2000
	for lo := 0; lo < len(keys); lo += chunk {
		ks := keys[lo:min(lo+chunk, len(keys))]
		p := c.Pipeline()
		types := make([]*redis.StatusCmd, len(ks))
		ttls := make([]*redis.DurationCmd, len(ks))
		for i, k := range ks {
			types[i] = p.Type(ctx, k)
			ttls[i] = p.TTL(ctx, k)
		}
		if _, err := p.Exec(ctx); err != nil {
			t.Fatal(err)
		}
		p = c.Pipeline()
		vals := make([]redis.Cmder, len(ks))
		for i, k := range ks {
			switch types[i].Val() {
			case "string":
				vals[i] = p.Get(ctx, k)
			case "hash":
				vals[i] = p.HGetAll(ctx, k)
			case "set":
				vals[i] = p.SMembers(ctx, k)
			case "zset":
				vals[i] = p.ZRangeWithScores(ctx, k, 0, -1)
			case "stream":
				vals[i] = p.XRange(ctx, k, "-", "+")
			}
		}
		if _, err := p.Exec(ctx); err != nil {
			t.Fatal(err)
		}
		for i, k := range ks {
			var lines []string
			switch v := vals[i].(type) {
			case *redis.StringCmd:
				lines = []string{q(v.Val())}
			case *redis.MapStringStringCmd:
				for f, x := range v.Val() {
					lines = append(lines, q(f)+"="+q(x))
				}
				sort.Strings(lines)
			case *redis.StringSliceCmd:
				for _, x := range v.Val() {
					lines = append(lines, q(x))
				}
				sort.Strings(lines)
			case *redis.ZSliceCmd:
				for _, z := range v.Val() {
					lines = append(lines, fmt.Sprintf("%s:%v", q(z.Member.(string)), z.Score))
				}
				sort.Strings(lines)
			case *redis.XMessageSliceCmd:
				for _, e := range v.Val() {
					var fs []string
					for f, x := range e.Values {
						fs = append(fs, q(f)+"="+q(fmt.Sprint(x)))
					}
					sort.Strings(fs)
					lines = append(lines, e.ID+" "+strings.Join(fs, " "))
				}
			}
			out[k] = types[i].Val() + fmt.Sprintf(" ttl=%v\n", ttls[i].Val() > 0) + strings.Join(lines, "\n")
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
