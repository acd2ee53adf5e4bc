// Package seriestest holds what the tests of series and of its REST API
// (series/restapi) share: PCP's pmseries --load into a private Redis, a
// canonical dump of every key in a Redis database, and the comparison of
// two dumps that counts the loader's known departures from PCP's.
package seriestest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/series/resp"
)

// QAArchives is the directory of PCP's QA archives (pcp-testsuite).
const QAArchives = "/var/lib/pcp/testsuite/archives"

// PCPLoad loads an archive with PCP's pmseries into the server at port.
//
// PCP 6.0.3's pmseries --load sometimes dies of a segmentation fault
// part-way through a load that succeeds when run again (seen once in
// `TestLoadMatchesPCP/20180102` beside other test runs; eight loads of
// the same archive by hand all succeeded). The reference is what is
// being obtained here, not what is tested, so a load killed by a signal
// is made again on an emptied server, at most loadAttempts times, and
// logged; any other failure, or a third crash, fails the test.
func PCPLoad(t *testing.T, port int, conf, archive string) {
	t.Helper()
	bin := pcptest.NeedTool(t, "pmseries")
	loadRetrying(t, port, archive, func() ([]byte, error) {
		return exec.Command(bin, "-c", conf, "-p", strconv.Itoa(port), "--load", archive).CombinedOutput()
	})
}

// loadRetrying runs load until it succeeds, emptying the server at port
// before another attempt after one killed by a signal.
func loadRetrying(t testing.TB, port int, archive string, load func() ([]byte, error)) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		out, err := load()
		if err == nil {
			return
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || !ee.Sys().(syscall.WaitStatus).Signaled() || attempt >= loadAttempts {
			t.Fatalf("PCP's pmseries --load %s: %v\n%s", archive, err, out)
		}
		t.Logf("PCP's pmseries --load %s: %v (attempt %d; loading again into an emptied server)", archive, err, attempt)
		if err := flushAll(port); err != nil {
			t.Fatalf("emptying the server at port %d after PCP's pmseries crashed: %v", port, err)
		}
	}
}

// loadAttempts bounds the loads PCPLoad makes when PCP's pmseries crashes.
const loadAttempts = 3

// flushAll empties the test's own Redis at port: every master of the
// cluster when the server is a cluster node, else the one server.
func flushAll(port int) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	addr := "127.0.0.1:" + strconv.Itoa(port)
	p := resp.NewPool(addr, resp.Options{})
	defer p.Close()
	info, err := p.Do(ctx, "INFO", "cluster")
	if err != nil {
		return err
	}
	addrs := []string{addr}
	if s, _ := info.Text(); strings.Contains(s, "cluster_enabled:1") {
		c := resp.NewCluster([]string{addr}, resp.Options{})
		defer c.Close()
		ranges, err := c.Slots(ctx)
		if err != nil {
			return err
		}
		addrs = addrs[:0]
		for _, r := range ranges {
			if !slices.Contains(addrs, r.Addr) {
				addrs = append(addrs, r.Addr)
			}
		}
	}
	for _, a := range addrs {
		q := resp.NewPool(a, resp.Options{})
		v, err := q.Do(ctx, "FLUSHALL")
		q.Close()
		if err == nil {
			err = v.Err()
		}
		if err != nil {
			return fmt.Errorf("FLUSHALL at %s: %w", a, err)
		}
	}
	return nil
}

// WriteConf writes a pmseries.conf with series enabled into a temporary
// directory of t's, and gives its path.
func WriteConf(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "pmseries.conf")
	if err := os.WriteFile(p, []byte("[pmseries]\nenabled = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Departures counts the known, deliberate differences from PCP 6.0.3's
// loader (docs/series.md): instances PCP leaves out of a metric's sets when
// another metric of the same instance domain saw them first, and values
// PCP repeats in a stream for instances absent from a record.
type Departures struct {
	MoreMembers int // set members only ours has, in the sets named above
	StaleValues int // stream fields only PCP's has, each its previous value
	Phantoms    int // instances only PCP's has: renamed ones no record holds
	phantom     map[string]bool
}

// streamFields is every field name of the streams of a dump.
func streamFields(d map[string]string) map[string]bool {
	out := map[string]bool{}
	for k, v := range d {
		if !strings.HasPrefix(k, "pcp:values:series:") {
			continue
		}
		for _, line := range strings.Split(v, "\n")[1:] {
			for _, f := range strings.Split(line, " ")[1:] {
				name, _, _ := strings.Cut(f, "=")
				out[name] = true
			}
		}
	}
	return out
}

// dropPhantoms takes from PCP's dump what it holds of phantom instances:
// instances whose identifiers PCP's streams carry but no record of the
// archive does (libpcp_web renames an instance left in a metric's value
// list from an earlier record, and writes it and its stale value anew).
func dropPhantoms(pcpd, ours map[string]string, dep *Departures) {
	pf, of := streamFields(pcpd), streamFields(ours)
	dep.phantom = map[string]bool{}
	names := map[string]bool{}
	for f := range pf {
		if of[f] || !strings.HasPrefix(f, "x") || len(f) != 41 {
			continue
		}
		h := f[1:]
		if _, ok := ours["pcp:inst:series:"+h]; ok {
			continue
		}
		inst, ok := pcpd["pcp:inst:series:"+h]
		if !ok {
			continue
		}
		dep.phantom[f] = true
		dep.Phantoms++
		for _, line := range strings.Split(inst, "\n") {
			if n, ok := strings.CutPrefix(line, `"name"=`); ok {
				names[n] = true
			}
		}
		for _, pre := range []string{"pcp:inst:series:", "pcp:labelvalue:series:", "pcp:labelflags:series:"} {
			delete(pcpd, pre+h)
		}
	}
	for n := range names {
		k := "pcp:series:inst.name:" + n[1:]
		if _, ok := ours[k]; !ok {
			delete(pcpd, k)
		}
	}
	for k, v := range pcpd {
		switch {
		case strings.HasPrefix(k, "pcp:instances:series:"):
			lines := strings.Split(v, "\n")
			keep := lines[:1]
			for _, m := range lines[1:] {
				if !dep.phantom[m] {
					keep = append(keep, m)
				}
			}
			pcpd[k] = strings.Join(keep, "\n")
		case k == "pcp:map:inst.name":
			lines := strings.Split(v, "\n")
			keep := lines[:1]
			for _, m := range lines[1:] {
				f, _, _ := strings.Cut(m, "=")
				if names[f] && !strings.Contains(ours[k], m) {
					continue
				}
				keep = append(keep, m)
			}
			pcpd[k] = strings.Join(keep, "\n")
		}
	}
}

// CompareDumps reports every key whose name or content differs beyond the
// departures, which it counts.
func CompareDumps(t *testing.T, name string, pcpd, ours map[string]string) (same int, dep Departures) {
	t.Helper()
	dropPhantoms(pcpd, ours, &dep)
	var keys []string
	for k := range pcpd {
		keys = append(keys, k)
	}
	for k := range ours {
		if _, ok := pcpd[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	bad := 0
	for _, k := range keys {
		p, okp := pcpd[k]
		o, oko := ours[k]
		switch {
		case !okp:
			t.Errorf("%s: key %s only in ours:\n%s", name, k, clip(o))
			bad++
		case !oko:
			t.Errorf("%s: key %s only in PCP's:\n%s", name, k, clip(p))
			bad++
		case p == o:
			same++
		case moreMembersOK(k, p, o, &dep) || staleValuesOK(k, p, o, &dep):
			same++
		default:
			t.Errorf("%s: key %s differs:\nPCP's:\n%s\nours:\n%s", name, k, clip(p), clip(o))
			bad++
		}
		if bad > 10 {
			t.Fatalf("%s: too many differences", name)
		}
	}
	return same, dep
}

// moreMembersOK accepts a set of instances or label members of which PCP's
// is a subset of ours.
func moreMembersOK(k, p, o string, dep *Departures) bool {
	if !strings.HasPrefix(k, "pcp:instances:series:") && !strings.HasPrefix(k, "pcp:series:inst.name:") &&
		!strings.HasPrefix(k, "pcp:series:label.") {
		return false
	}
	pl, ol := strings.Split(p, "\n"), strings.Split(o, "\n")
	if pl[0] != ol[0] || !strings.HasPrefix(pl[0], "set ") {
		return false
	}
	have := map[string]bool{}
	for _, m := range ol[1:] {
		have[m] = true
	}
	for _, m := range pl[1:] {
		if !have[m] {
			return false
		}
	}
	dep.MoreMembers += len(ol) - len(pl)
	return true
}

// staleValuesOK accepts a stream whose entries equal PCP's but for fields
// PCP has and ours lacks, each holding its value of PCP's previous entry.
func staleValuesOK(k, p, o string, dep *Departures) bool {
	if !strings.HasPrefix(k, "pcp:values:series:") {
		return false
	}
	pl, ol := strings.Split(p, "\n"), strings.Split(o, "\n")
	if pl[0] != ol[0] {
		return false
	}
	fields := func(line string) (string, map[string]string) {
		parts := strings.Split(line, " ")
		m := map[string]string{}
		for _, f := range parts[1:] {
			k, v, _ := strings.Cut(f, "=")
			m[k] = v
		}
		return parts[0], m
	}
	oi := 1
	prev := map[string]string{}
	n := 0
	for _, line := range pl[1:] {
		id, pf := fields(line)
		if oi >= len(ol) {
			return false
		}
		oid, of := fields(ol[oi])
		if oid != id {
			return false
		}
		oi++
		for f, v := range of {
			if pf[f] != v {
				return false
			}
		}
		for f, v := range pf {
			if _, ok := of[f]; !ok {
				if prev[f] != v && !dep.phantom[f] {
					return false
				}
				n++
			}
		}
		prev = pf
	}
	if oi != len(ol) {
		return false
	}
	dep.StaleValues += n
	return true
}

func clip(s string) string {
	if len(s) > 1500 {
		return s[:1500] + "..."
	}
	return s
}

// Dump is every key of a Redis database in a canonical text: its type and
// content (hash fields, set members, stream entries sorted where Redis
// gives no order), binary bytes escaped, and whether it has a time to live.
func Dump(t testing.TB, c resp.Client) map[string]string {
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
