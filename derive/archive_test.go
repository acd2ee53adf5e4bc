package derive

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

const qaArchives = "/var/lib/pcp/testsuite/archives"

// archiveSource is the adapter pmapi's archive contexts need.
type archiveSource struct{ *pmapi.ArchiveContext }

func (a archiveSource) Fetch(ctx context.Context, pmids []pcp.PMID, r *pcp.Result) error {
	_, err := a.ArchiveContext.Fetch(ctx, pmids, r)
	return err
}

type archiveGroup struct {
	archive, mode string
	ms, fetches   int
	exprs, names  []string
}

func archiveGroups(t *testing.T) []archiveGroup {
	var groups []archiveGroup
	for _, line := range readLines(t, "testdata/archive.txt") {
		switch {
		case line == "" || line[0] == '#':
		case strings.HasPrefix(line, "archive "):
			f := strings.Fields(line)
			ms, _ := strconv.Atoi(f[3])
			n, _ := strconv.Atoi(f[4])
			groups = append(groups, archiveGroup{archive: f[1], mode: f[2], ms: ms, fetches: n})
		default:
			g := &groups[len(groups)-1]
			g.names = append(g.names, fmt.Sprintf("a.g%02d.m%02d", len(groups)-1, len(g.exprs)))
			g.exprs = append(g.exprs, line)
		}
	}
	return groups
}

func cNumber(d float64) string {
	switch {
	case math.IsNaN(d):
		return "nan"
	case math.IsInf(d, 1):
		return "inf"
	case math.IsInf(d, -1):
		return "-inf"
	}
	return strconv.FormatFloat(d, 'g', 17, 64)
}

// ourArchiveFetch prints what testdata/harness/archfetch.c prints, with
// derive over a pmapi archive context.
func ourArchiveFetch(t *testing.T, g archiveGroup, conf string) string {
	ctx := context.Background()
	reg := NewRegistry()
	if _, err := reg.LoadConfig(conf); err != nil {
		t.Fatal(err)
	}
	ac, err := pmapi.NewArchiveContext(ctx, filepath.Join(qaArchives, g.archive))
	if err != nil {
		t.Fatalf("%s: %v", g.archive, err)
	}
	defer ac.Close()
	mode := pmapi.ModeInterp
	if g.mode == "forw" {
		mode = pmapi.ModeForw
	}
	if err := ac.SetMode(mode, ac.Start(), time.Duration(g.ms)*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	dc := NewLayer(archiveSource{ac}, reg)
	var b strings.Builder
	pmids := make([]pcp.PMID, len(g.names))
	descs := make([]pcp.Desc, len(g.names))
	for i, name := range g.names {
		pmids[i] = pcp.PMIDNull
		ids, err := dc.LookupNames(ctx, []string{name})
		if err != nil {
			fmt.Fprintf(&b, "%s: %s\n", name, errText(err))
			continue
		}
		d, err := dc.LookupDesc(ctx, ids[0])
		if err != nil {
			fmt.Fprintf(&b, "%s: %s\n", name, errText(err))
			continue
		}
		pmids[i], descs[i] = ids[0], d
	}
	// fetch only the metrics that could be described, as archfetch does
	var names []string
	var okPMIDs []pcp.PMID
	var okDescs []pcp.Desc
	for i, p := range pmids {
		if p != pcp.PMIDNull {
			names = append(names, g.names[i])
			okPMIDs = append(okPMIDs, p)
			okDescs = append(okDescs, descs[i])
		}
	}
	pmids, descs = okPMIDs, okDescs
	if len(pmids) == 0 {
		return b.String()
	}
	var r pcp.Result
	for k := 0; k < g.fetches; k++ {
		if err := dc.Fetch(ctx, pmids, &r); err != nil {
			fmt.Fprintf(&b, "fetch %d: %s\n", k, errText(err))
			break
		}
		fmt.Fprintf(&b, "fetch %d %d.%09d\n", k, r.Timestamp.Sec, r.Timestamp.Nsec)
		for i, name := range names {
			vs := &r.Sets[i]
			if vs.NumVal < 0 {
				fmt.Fprintf(&b, "  %s: %s\n", name, pcp.ErrorText(vs.NumVal))
				continue
			}
			fmt.Fprintf(&b, "  %s: %d\n", name, vs.NumVal)
			for j := range vs.Values[:vs.NumVal] {
				fmt.Fprintf(&b, "    [%d] ", vs.Values[j].Inst)
				if descs[i].Type == pcp.TypeString {
					a, _ := pcp.ExtractValue(vs.ValFmt, &vs.Values[j], descs[i].Type, pcp.TypeString)
					fmt.Fprintf(&b, "%q\n", a.CP)
					continue
				}
				a, err := pcp.ExtractValue(vs.ValFmt, &vs.Values[j], descs[i].Type, pcp.TypeDouble)
				if err != nil {
					b.WriteString(errText(err) + "\n")
					continue
				}
				b.WriteString(cNumber(a.D) + "\n")
			}
		}
	}
	return b.String()
}

// TestArchiveAgainstPCP fetches derived metrics from PCP's QA archives,
// interpolated and record by record, with libpcp (through
// testdata/harness/archfetch.c) and with derive over pmapi's archive
// contexts, and compares every timestamp and value.
func TestArchiveAgainstPCP(t *testing.T) {
	if _, err := os.Stat(qaArchives); err != nil {
		pcptest.Missing(t, "PCP's QA archives (pcp-testsuite) are not installed")
	}
	bin := pcptest.Harness(t, "testdata/harness/archfetch.c")
	total := 0
	for gi, g := range archiveGroups(t) {
		var conf strings.Builder
		for i, e := range g.exprs {
			fmt.Fprintf(&conf, "%s = %s\n", g.names[i], e)
		}
		path := filepath.Join(t.TempDir(), "archive.conf")
		if err := os.WriteFile(path, []byte(conf.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append([]string{filepath.Join(qaArchives, g.archive), path, g.mode, strconv.Itoa(g.ms), strconv.Itoa(g.fetches)}, g.names...)
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "PCP_DERIVED_CONFIG=")
		want, err := cmd.Output()
		if err != nil {
			t.Fatalf("group %d: archfetch: %v", gi, err)
		}
		got := ourArchiveFetch(t, g, path)
		if got != string(want) {
			t.Errorf("group %d (%s %s):", gi, g.archive, g.mode)
			diffReport(t, nil, string(want), got)
		}
		total += len(g.exprs)
	}
	t.Logf("%d derived metrics over QA archives compared with libpcp", total)
}

// TestArchiveRandomAgainstPCP defines random expressions over the
// metrics of a QA archive and compares 30 interpolated fetches of each
// with libpcp's.
func TestArchiveRandomAgainstPCP(t *testing.T) {
	if _, err := os.Stat(qaArchives); err != nil {
		pcptest.Missing(t, "PCP's QA archives (pcp-testsuite) are not installed")
	}
	n := 60
	if s := os.Getenv("DERIVE_RANDOM_N"); s != "" {
		fmt.Sscan(s, &n)
	}
	g := exprGen{
		r: rand.New(rand.NewSource(randomSeed())),
		scalars: []string{"kernel.all.cpu.user", "kernel.all.cpu.sys", "kernel.all.cpu.idle", "kernel.all.intr",
			"kernel.all.pswitch", "mem.util.used", "mem.util.free", "mem.physmem", "hinv.ncpu", "swap.pagesin",
			"kernel.all.load[1 minute]", "kernel.all.uptime"},
		sets: []string{"disk.dev.read", "disk.dev.write", "disk.dev.total", "disk.dev.read_bytes", "disk.dev.avactive",
			"kernel.percpu.cpu.user", "kernel.percpu.cpu.sys", "network.interface.in.bytes", "network.interface.out.bytes"},
		insts: []string{"hda", "hdb", "cpu0", "cpu1", "eth0", "lo", "sda"},
		// max() and min() of no values are garbage in libpcp (it answers
		// a value it never set), and early interpolated fetches have none
		funcs: []string{"sum", "avg", "count", "instant", "delta", "rate"},
	}
	group := archiveGroup{archive: "20041125", mode: "interp", ms: 15000, fetches: 30}
	if a := os.Getenv("DERIVE_RANDOM_ARCHIVE"); a != "" {
		group.archive = a // for longer hunts by hand
	}
	if m := os.Getenv("DERIVE_RANDOM_MODE"); m != "" {
		group.mode = m
	}
	for i := range n {
		group.names = append(group.names, fmt.Sprintf("a.r.m%03d", i))
		group.exprs = append(group.exprs, g.expr(3))
	}
	var conf strings.Builder
	for i, e := range group.exprs {
		fmt.Fprintf(&conf, "%s = %s\n", group.names[i], e)
		fmt.Fprintf(&conf, "reset.m%03d = matchinst(/x/, disk.dev.read)\n", i)
	}
	path := filepath.Join(t.TempDir(), "random.conf")
	if err := os.WriteFile(path, []byte(conf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := pcptest.Harness(t, "testdata/harness/archfetch.c")
	bad := 0
	for i := range group.names {
		one := group
		one.names, one.exprs = group.names[i:i+1], group.exprs[i:i+1]
		args := []string{filepath.Join(qaArchives, one.archive), path, one.mode, strconv.Itoa(one.ms), strconv.Itoa(one.fetches), one.names[0]}
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "PCP_DERIVED_CONFIG=")
		want, err := cmd.Output()
		if err != nil {
			t.Logf("%s = %s: libpcp fails (%v)", one.names[0], one.exprs[0], err)
			bad++
			continue
		}
		if got := ourArchiveFetch(t, one, path); got != string(want) {
			bad++
			t.Logf("differs: %s = %s", one.names[0], one.exprs[0])
			if bad <= 5 {
				t.Errorf("%s = %s:", one.names[0], one.exprs[0])
				diffReport(t, nil, string(want), got)
			}
		}
	}
	t.Logf("%d random expressions over %s, %d fetches each (%s): %d differ", n, group.archive, group.fetches, group.mode, bad)
}
