package main

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/agents/linux"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// TestMain removes the built commands when the tests are done.
func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }

// beds starts PCP's pmcd with PCP's pmdalinux, PCP's pmcd with ours as a
// pipe agent, and gopcp's pmcd with ours in-process, all with PCP's
// namespace for the agent.
func beds(t *testing.T) (theirs, oursPipe, oursGo *testbed.PMCD) {
	t.Helper()
	theirs = testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.LinuxAgent()}})
	pmns := filepath.Join(theirs.Install().Var("PCP_VAR_DIR"), "pmns", "root_linux")
	bin := pcptest.GoCommand(t, ".")
	oursPipe = testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(), testbed.PipeAgent("linux", linux.Domain, pmns, bin, "-d", "60"),
	}})
	oursGo = testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.GoDSOAgent("linux", linux.Domain, "linux_init", pmns),
	}})
	return theirs, oursPipe, oursGo
}

func runTool(t *testing.T, bed *testbed.PMCD, tool string, args ...string) string {
	t.Helper()
	r := bed.Run(tool, append([]string{"-h", bed.Host()}, args...)...)
	if r.Err != nil {
		t.Fatalf("%s %v: %v\n%s", tool, args[:min(len(args), 3)], r.Err, r.Stderr)
	}
	return r.Stdout + r.Stderr
}

// TestAgainstPCP runs the comparisons with PCP's agent on one set of
// beds: PCP's pmcd with PCP's pmdalinux, PCP's pmcd with ours as a pipe
// agent, gopcp's pmcd with ours in-process.
func TestAgainstPCP(t *testing.T) {
	t.Parallel()
	theirs, oursPipe, oursGo := beds(t)
	t.Run("descriptors", func(t *testing.T) { testDescriptors(t, theirs, oursPipe, oursGo) })
	t.Run("labels", func(t *testing.T) { testLabels(t, theirs, oursPipe, oursGo) })
	t.Run("values", func(t *testing.T) { testValues(t, theirs, oursPipe, oursGo) })
	t.Run("pmlogger", func(t *testing.T) { testPMLoggerDefaultConfig(t, theirs, oursPipe, oursGo) })
	t.Run("tools", func(t *testing.T) { testTools(t, theirs, oursPipe, oursGo) })
}

// testDescriptors: every metric we serve has PCP's descriptor, through
// PCP's pminfo against each pmcd, and one-line and full help.
func testDescriptors(t *testing.T, theirs, oursPipe, oursGo *testbed.PMCD) {
	names := linux.Names()
	want := runTool(t, theirs, "pminfo", append([]string{"-d"}, names...)...)
	for _, ours := range []*testbed.PMCD{oursPipe, oursGo} {
		if got := runTool(t, ours, "pminfo", append([]string{"-d"}, names...)...); got != want {
			t.Errorf("pminfo -d differs (go pmcd %v):\n%s", ours.IsGo(), firstDiff(got, want))
		}
		help := runTool(t, ours, "pminfo", append([]string{"-tT"}, names...)...)
		for _, bad := range []string{"<none>", "Error:", "Unknown"} {
			if strings.Contains(help, bad) {
				t.Errorf("pminfo -tT shows %q (go pmcd %v):\n%s", bad, ours.IsGo(), around(help, bad))
			}
		}
	}
	t.Logf("%d of PCP's %d metrics compared", len(names), len(linux.PCPNames()))
}

// firstDiff shows the first differing lines.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			lo := max(i-3, 0)
			return "ours:\n" + strings.Join(g[lo:min(i+3, len(g))], "\n") + "\nPCP's:\n" + strings.Join(w[lo:min(i+3, len(w))], "\n")
		}
	}
	return "lengths differ"
}

func around(s, sub string) string {
	i := strings.Index(s, sub)
	return s[max(i-200, 0):min(i+100, len(s))]
}

// snapshot is one fetch of every metric: per metric, instance name to
// value (strings for string metrics).
type snapshot map[string]map[string]any

// fetchAll fetches names from a bed through pmapi, with instance names.
func fetchAll(t *testing.T, ctx context.Context, c *pmapi.HostContext, names []string, pmids []pcp.PMID, descs []pcp.Desc) snapshot {
	t.Helper()
	var r pcp.Result
	if _, err := c.Fetch(ctx, pmids, &r); err != nil {
		t.Fatal(err)
	}
	snap := snapshot{}
	indoms := map[pcp.InDom]map[int32]string{}
	for i, set := range r.Sets {
		d := descs[i]
		vals := map[string]any{}
		for j := range set.Values {
			v := &set.Values[j]
			name := ""
			if d.InDom != pcp.InDomNull {
				m, ok := indoms[d.InDom]
				if !ok {
					ins, err := c.GetInDom(ctx, d.InDom)
					if err != nil {
						t.Fatalf("%s: instances: %v", names[i], err)
					}
					m = map[int32]string{}
					for _, in := range ins {
						m[in.Inst] = in.Name
					}
					indoms[d.InDom] = m
				}
				name = m[v.Inst]
				if name == "" {
					// An instance that came and went between the fetch
					// and the instance request is looked up alone.
					n, err := c.NameInDom(ctx, d.InDom, v.Inst)
					if err != nil {
						continue
					}
					name = n
				}
			}
			if d.Type == pcp.TypeString {
				a, err := pcp.ExtractValue(set.ValFmt, v, d.Type, pcp.TypeString)
				if err == nil {
					vals[name] = a.CP
				}
				continue
			}
			a, err := pcp.ExtractValue(set.ValFmt, v, d.Type, pcp.TypeDouble)
			if err != nil {
				t.Fatalf("%s: %v", names[i], err)
			}
			vals[name] = a.D
		}
		snap[names[i]] = vals
	}
	return snap
}

// permissionBound are metrics left out of the comparisons; none now that
// both agents serve the root-only ones to root clients only.
var permissionBound = []string{}

// testValues fetches every metric from PCP's agent, ours, and PCP's again,
// through one client, and compares: instance names identical; counters
// between PCP's two readings within 2% (and 1000 units) either way;
// discrete values equal (floats within 2%); strings equal; instantaneous
// values present where PCP's are.
func testValues(t *testing.T, theirs, oursPipe, oursGo *testbed.PMCD) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	names := linux.Names()
	connect := func(bed *testbed.PMCD) *pmapi.HostContext {
		c, err := pmapi.NewHostContext(ctx, bed.Host())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	pc := connect(theirs)
	pmids, err := pc.LookupNames(ctx, names)
	if err != nil {
		t.Fatal(err)
	}
	descs, err := pc.LookupDescs(ctx, pmids)
	if err != nil {
		t.Fatal(err)
	}
	for _, ours := range []*testbed.PMCD{oursPipe, oursGo} {
		oc := connect(ours)
		before := fetchAll(t, ctx, pc, names, pmids, descs)
		got := fetchAll(t, ctx, oc, names, pmids, descs)
		after := fetchAll(t, ctx, pc, names, pmids, descs)
		compared := 0
		for i, name := range names {
			if skip(name) {
				continue
			}
			compared++
			if msg := compare(descs[i], got[name], before[name], after[name]); msg != "" {
				t.Errorf("%s (go pmcd %v): %s", name, ours.IsGo(), msg)
			}
		}
		t.Logf("go pmcd %v: %d metrics compared", ours.IsGo(), compared)
	}
}

func skip(name string) bool {
	for _, p := range permissionBound {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func keys(m map[string]any) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return k
}

// compare checks ours against PCP's readings before and after.
func compare(d pcp.Desc, ours, before, after map[string]any) string {
	// Instances PCP had in both readings must be ours too, and we have
	// none it had in neither.
	for n := range before {
		if _, ok := after[n]; ok {
			if _, ok := ours[n]; !ok {
				return "no value for instance " + quote(n) + "; ours have " + strings.Join(keys(ours), ",")
			}
		}
	}
	for n := range ours {
		_, b := before[n]
		_, a := after[n]
		if !a && !b {
			return "instance " + quote(n) + " that PCP does not have (PCP's: " + strings.Join(keys(before), ",") + ")"
		}
	}
	for n, v := range ours {
		b, okb := before[n]
		a, oka := after[n]
		if !okb || !oka {
			continue
		}
		switch v := v.(type) {
		case string:
			if d.Sem != pcp.SemInstant && v != b.(string) && v != a.(string) {
				return "instance " + quote(n) + ": " + quote(v) + ", PCP's " + quote(b.(string))
			}
		case float64:
			lo, hi := math.Min(b.(float64), a.(float64)), math.Max(b.(float64), a.(float64))
			switch d.Sem {
			case pcp.SemCounter:
				slack := math.Max(1000, 0.02*hi)
				if v < lo-slack || v > hi+slack {
					return "instance " + quote(n) + ": " + ftoa(v) + " outside PCP's " + ftoa(lo) + ".." + ftoa(hi)
				}
			case pcp.SemDiscrete:
				if v < lo-0.02*math.Abs(lo) || v > hi+0.02*math.Abs(hi) {
					return "instance " + quote(n) + ": " + ftoa(v) + ", PCP's " + ftoa(lo) + ".." + ftoa(hi)
				}
			}
		}
	}
	return ""
}

func quote(s string) string { return "\"" + s + "\"" }

func ftoa(f float64) string { return strings.TrimRight(strings.TrimRight(strconvF(f), "0"), ".") }

var instNumRE = regexp.MustCompile(`inst \[\d+ or `)

// labelBlocks splits pminfo -l output into metric blocks with instance
// numbers removed and lines sorted: instance numbers are assigned per run
// (PCP's agent keeps them in its cache files), names and labels are what
// must agree.
func labelBlocks(out string) map[string]string {
	blocks := map[string]string{}
	for _, b := range strings.Split(strings.TrimSpace(out), "\n\n") {
		lines := strings.Split(instNumRE.ReplaceAllString(strings.TrimSpace(b), "inst ["), "\n")
		if len(lines) == 0 {
			continue
		}
		rest := lines[1:]
		sort.Strings(rest)
		blocks[lines[0]] = strings.Join(rest, "\n")
	}
	return blocks
}

// testLabels: PCP's pminfo -l of every metric we serve gives the same
// label sets (context, domain, instance domain, item and instance) as with
// PCP's agent, instance numbers aside.
func testLabels(t *testing.T, theirs, oursPipe, oursGo *testbed.PMCD) {
	names := linux.Names()
	want := labelBlocks(runTool(t, theirs, "pminfo", append([]string{"-l"}, names...)...))
	for _, ours := range []*testbed.PMCD{oursPipe, oursGo} {
		got := labelBlocks(runTool(t, ours, "pminfo", append([]string{"-l"}, names...)...))
		bad := 0
		for _, name := range names {
			if skip(name) || got[name] == want[name] {
				continue
			}
			if bad++; bad <= 10 {
				t.Errorf("%s (go pmcd %v) labels:\nours:\n%s\nPCP's:\n%s", name, ours.IsGo(), got[name], want[name])
			}
		}
		if bad > 10 {
			t.Errorf("go pmcd %v: %d metrics' labels differ", ours.IsGo(), bad)
		}
	}
}
