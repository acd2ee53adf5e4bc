//go:build pmapiarchive

// The archive comparison needs pmapi's archive contexts, which are being
// written beside this package: build it with -tags pmapiarchive until
// they are committed, then drop this constraint.

package derive

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/pcptest"
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
	dc := NewContext(archiveSource{ac}, reg)
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
	var r pcp.Result
	for k := 0; k < g.fetches; k++ {
		if err := dc.Fetch(ctx, pmids, &r); err != nil {
			fmt.Fprintf(&b, "fetch %d: %s\n", k, errText(err))
			break
		}
		fmt.Fprintf(&b, "fetch %d %d.%09d\n", k, r.Timestamp.Sec, r.Timestamp.Nsec)
		for i, name := range g.names {
			if pmids[i] == pcp.PMIDNull {
				continue
			}
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
