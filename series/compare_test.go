package series

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/series/resp"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
)

const qaArchives = "/var/lib/pcp/testsuite/archives"

// pcpLoad loads an archive with PCP's pmseries into the server at port.
func pcpLoad(t *testing.T, port int, conf, archive string) {
	t.Helper()
	bin := pcptest.NeedTool(t, "pmseries")
	cmd := exec.Command(bin, "-c", conf, "-p", strconv.Itoa(port), "--load", archive)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("PCP's pmseries --load %s: %v\n%s", archive, err, out)
	}
}

func writeConf(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "pmseries.conf")
	if err := os.WriteFile(p, []byte("[pmseries]\nenabled = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func client(t testing.TB, s *redistest.Server) *resp.Pool {
	c := resp.NewPool(s.Addr(), resp.Options{Timeout: time.Minute})
	t.Cleanup(func() { c.Close() })
	return c
}

// do runs one command, failing the test on any error.
func redisDo(t testing.TB, c resp.Client, args ...string) resp.Value {
	t.Helper()
	v, err := c.Do(context.Background(), args...)
	if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return v
}

// departures counts the known, deliberate differences from PCP 6.0.3's
// loader (docs/series.md): instances PCP leaves out of a metric's sets when
// another metric of the same instance domain saw them first, and values
// PCP repeats in a stream for instances absent from a record.
type departures struct {
	moreMembers int // set members only ours has, in the sets named above
	staleValues int // stream fields only PCP's has, each its previous value
	phantoms    int // instances only PCP's has: renamed ones no record holds
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
func dropPhantoms(pcpd, ours map[string]string, dep *departures) {
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
		dep.phantoms++
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

// compareDumps reports every key whose name or content differs beyond the
// departures, which it counts.
func compareDumps(t *testing.T, name string, pcpd, ours map[string]string) (same int, dep departures) {
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
func moreMembersOK(k, p, o string, dep *departures) bool {
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
	dep.moreMembers += len(ol) - len(pl)
	return true
}

// staleValuesOK accepts a stream whose entries equal PCP's but for fields
// PCP has and ours lacks, each holding its value of PCP's previous entry.
func staleValuesOK(k, p, o string, dep *departures) bool {
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
	dep.staleValues += n
	return true
}

func clip(s string) string {
	if len(s) > 1500 {
		return s[:1500] + "..."
	}
	return s
}

// TestLoadMatchesPCP loads QA archives with PCP's pmseries into one
// private Redis and with ours into another, and compares every key.
func TestLoadMatchesPCP(t *testing.T) {
	archives := []string{"20041125", "omnibus_v3", "sample-labels", "daily_report", "mirage-3",
		"20071023-08-06-36", "20180102", "multi-xz/20150508.11.50", "20190628.04.03", "ok-mv-bar"}
	if os.Getenv("GOPCP_SERIES_FULL") == "1" {
		archives = append(archives, "pcp-zeroconf", "bozo-20170904")
	}
	if testing.Short() {
		archives = archives[:1]
	}
	conf := writeConf(t)
	for _, a := range archives {
		t.Run(a, func(t *testing.T) {
			path := filepath.Join(qaArchives, a)
			pcpSrv, ourSrv := redistest.Start(t), redistest.Start(t)
			pcpLoad(t, pcpSrv.Port, conf, path)
			st, err := Load(context.Background(), client(t, ourSrv), path, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			same, dep := compareDumps(t, a, dump(t, client(t, pcpSrv)), dump(t, client(t, ourSrv)))
			t.Logf("%s: %d records, %d keys equal; departures: %d more set members, %d stale values PCP repeats, %d phantom instances PCP writes",
				a, st.Records, same, dep.moreMembers, dep.staleValues, dep.phantoms)
		})
	}
}

// TestFastLoadMatchesPCP: pmseries -F loads metadata without values; ours
// with MetadataOnly writes the same keys.
func TestFastLoadMatchesPCP(t *testing.T) {
	bin := pcptest.NeedTool(t, "pmseries")
	conf := writeConf(t)
	for _, a := range []string{"omnibus_v3", "20041125"} {
		path := filepath.Join(qaArchives, a)
		pcpSrv, ourSrv := redistest.Start(t), redistest.Start(t)
		cmd := exec.Command(bin, "-c", conf, "-p", strconv.Itoa(pcpSrv.Port), "-F", "--load", path)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("PCP's pmseries -F --load: %v\n%s", err, out)
		}
		if _, err := Load(context.Background(), client(t, ourSrv), path, LoadOptions{MetadataOnly: true}); err != nil {
			t.Fatal(err)
		}
		same, dep := compareDumps(t, a+" -F", dump(t, client(t, pcpSrv)), dump(t, client(t, ourSrv)))
		t.Logf("%s -F: %d keys equal; %d more set members", a, same, dep.moreMembers)
	}
}
