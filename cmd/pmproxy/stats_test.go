package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/proxybed"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/mmv/mmvfile"
)

const pmproxyRoot = "$PCP_VAR_DIR/pmns/root_pmproxy"

// TestStatsAgainstPCP runs our pmproxy beside gopcp's pmcd with the
// pmproxy agent (pmproxy_init, domain 4) reading the pmcd's
// PCP_TMP_DIR/pmproxy, where our pmproxy writes its own metrics; and PCP's
// pmproxy, whose files are served by PCP's pmcd and PCP's pmda_mmv.so. The
// names, PMIDs, types, semantics and units pminfo prints for pmproxy.*
// must be the same; the pid label and value are each pmproxy's own, and
// a sweep of web contexts shows in webgroup.gc.context.scans.
func TestStatsAgainstPCP(t *testing.T) {
	in := testbed.Need(t)
	if _, err := os.Stat(filepath.Join(in.Var("PCP_PMDAS_DIR"), "mmv", "pmda_mmv.so")); err != nil {
		t.Skip("PCP's pmda_mmv.so is not installed")
	}
	goBed := testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(),
		testbed.GoDSOAgent("pmproxy", 4, "pmproxy_init", pmproxyRoot),
	}})
	tmp := filepath.Join(goBed.Dir(), "tmp")
	if err := os.MkdirAll(filepath.Join(tmp, "pmproxy"), 0o755); err != nil {
		t.Fatal(err)
	}
	ours := startOursIn(t, proxybed.Conf, tmp)

	// PCP's pmproxy, and a PCP pmcd serving copies of its files (they
	// name a live process, so pmdammv takes them)
	pcpBed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(),
		testbed.DSOAgent("pmproxy", 4, "$PCP_PMDAS_DIR/mmv/pmda_mmv.so", "pmproxy_init", pmproxyRoot),
	}})
	pcpProxy := proxybed.Start(t, pcpBed)
	pcpStats := filepath.Join(pcpBed.Dir(), "tmp", "pmproxy")
	if err := os.MkdirAll(pcpStats, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"server", "webgroup"} {
		b, err := os.ReadFile(filepath.Join(pcpProxy.StatsDir(), name))
		if err != nil {
			t.Fatalf("PCP's pmproxy wrote no %s file: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(pcpStats, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// the files themselves: version, flags, cluster, and each metric's
	// name, item, type, semantics, units and instance domain, in order
	for _, name := range []string{"server", "webgroup"} {
		g, w := fileShape(t, filepath.Join(tmp, "pmproxy", name)), fileShape(t, filepath.Join(pcpStats, name))
		if g != w {
			t.Errorf("%s file\nours:\n%s\nPCP's:\n%s", name, g, w)
		}
	}

	desc := func(bed *testbed.PMCD) string {
		r := bed.Run("pminfo", "-h", bed.Host(), "-d", "-m", "pmproxy")
		if r.Err != nil {
			t.Fatalf("pminfo -d -m pmproxy: %v\n%s", r.Err, r.Stderr)
		}
		return r.Stdout
	}
	want, got := desc(pcpBed), desc(goBed)
	if got != want {
		t.Errorf("pminfo -d -m pmproxy\nours:\n%s\nPCP's:\n%s", got, want)
	}
	for _, name := range []string{"pmproxy.pid", "pmproxy.cpu.user", "pmproxy.mem.maxrss", "pmproxy.webgroup.gc.context.scans"} {
		if !strings.Contains(got, name+" PMID: 4.") {
			t.Errorf("no %s in\n%s", name, got)
		}
	}

	// each pmproxy's pid, as value and label
	pid := strconv.Itoa(os.Getpid())
	r := goBed.Run("pminfo", "-h", goBed.Host(), "-f", "-l", "pmproxy.pid")
	if r.Err != nil || !strings.Contains(r.Stdout, "value "+pid+"\n") || !strings.Contains(r.Stdout, `"pid":`+pid+`}`) {
		t.Errorf("our pmproxy.pid, pid %s: %v\n%s%s", pid, r.Err, r.Stdout, r.Stderr)
	}
	r = pcpBed.Run("pminfo", "-h", pcpBed.Host(), "-f", "-l", "pmproxy.pid")
	ppid := strconv.Itoa(pcpProxy.PID())
	if r.Err != nil || !strings.Contains(r.Stdout, "value "+ppid+"\n") || !strings.Contains(r.Stdout, `"pid":`+ppid+`}`) {
		t.Errorf("PCP's pmproxy.pid, pid %s: %v\n%s%s", ppid, r.Err, r.Stdout, r.Stderr)
	}
	// labels but the pid's, masked, alike
	pidRE := regexp.MustCompile(`"pid":[0-9]+`)
	labels := func(bed *testbed.PMCD) string {
		r := bed.Run("pminfo", "-h", bed.Host(), "-l", "pmproxy")
		if r.Err != nil {
			t.Fatalf("pminfo -l pmproxy: %v\n%s", r.Err, r.Stderr)
		}
		return pidRE.ReplaceAllString(r.Stdout, `"pid":PID`)
	}
	if g, w := labels(goBed), labels(pcpBed); g != w {
		t.Errorf("pminfo -l pmproxy\nours:\n%s\nPCP's:\n%s", g, w)
	}

	// a web context made and let expire is seen by a sweep
	resp, err := http.Get("http://" + ours + "/pmapi/context?hostspec=" + goBed.Host() + "&polltimeout=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for i := 0; ; i++ {
		r := goBed.Run("pmprobe", "-h", goBed.Host(), "-v", "pmproxy.webgroup.gc.context.scans", "pmproxy.webgroup.gc.context.drops")
		if r.Err == nil && strings.Contains(r.Stdout, "pmproxy.webgroup.gc.context.scans 1 1\n") && strings.Contains(r.Stdout, "pmproxy.webgroup.gc.context.drops 1 1\n") {
			break
		}
		if i == 300 {
			t.Fatalf("no sweep seen: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

var pidLabel = regexp.MustCompile(`"pid":[0-9]+`)

// fileShape is an MMV file's header and metric records without help
// texts, values or the process identifier.
func fileShape(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := mmvfile.Parse(b, mmvfile.Limits{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := fmt.Sprintf("version %d flags %#x cluster %d\n", f.Version, f.Flags, f.Cluster)
	for _, l := range f.Labels {
		out += fmt.Sprintf("label flags %#x identity %d internal %d %s\n", l.Flags, l.Identity, l.Internal, pidLabel.ReplaceAllString(l.Payload, `"pid":PID`))
	}
	for _, m := range f.Metrics {
		indom := fmt.Sprintf("%#x", m.InDom)
		if m.InDom == 0 || m.InDom == 0xffffffff {
			// none: libpcp_mmv writes what its caller gives
			// (PCP's pmproxy MMV_INDOM_NULL), package mmv 0
			indom = "none"
		}
		out += fmt.Sprintf("%s item %d type %d sem %d units %#x indom %s\n", m.Name, m.Item, m.Type, m.Sem, m.Units, indom)
	}
	return out
}
