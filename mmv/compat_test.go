package mmv

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// writerHarness builds testdata/harness/writer.c against libpcp_mmv.
func writerHarness(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat("/usr/include/pcp/mmv_stats.h"); err != nil {
		pcptest.Missing(t, "libpcp-mmv1-dev is not installed")
	}
	return pcptest.HarnessWith(t, "testdata/harness/writer.c", "-O1", "-Wl,--no-as-needed", "-lpcp_mmv")
}

// needMMVDump returns the path of PCP's mmvdump ($PCP_PMDAS_DIR/mmv).
func needMMVDump(t testing.TB) string {
	t.Helper()
	p := filepath.Join(testbed.Need(t).Var("PCP_PMDAS_DIR"), "mmv", "mmvdump")
	if _, err := os.Stat(p); err != nil {
		pcptest.Missing(t, "PCP's mmvdump is not installed")
	}
	return p
}

// Lines of mmvdump's output that differ between two writers of one
// registry: the file's path, the generation (a time), the writer's pid.
var dumpMask = regexp.MustCompile(`(?m)^(MMV file   =|Generated  =|Process    =) .*$`)

func mmvdump(t testing.TB, tool, path string) string {
	t.Helper()
	out, err := exec.Command(tool, path).CombinedOutput()
	if err != nil {
		t.Fatalf("mmvdump %s: %v\n%s", path, err, out)
	}
	return dumpMask.ReplaceAllString(string(out), "$1 (masked)")
}

// TestMMVDumpMatchesLibpcpMMV writes each registry with libpcp_mmv and
// with this package and compares what PCP's mmvdump prints of the two
// files: versions, flags, every section, offset, string and label.
func TestMMVDumpMatchesLibpcpMMV(t *testing.T) {
	tool := needMMVDump(t)
	writer := writerHarness(t)
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			cdir, godir := t.TempDir(), t.TempDir()
			cpath := filepath.Join(cdir, "acme")
			if out, err := exec.Command(writer, sc.name, cpath).CombinedOutput(); err != nil {
				t.Fatalf("writer %s: %v\n%s", sc.name, err, out)
			}
			r := sc.run(t, godir, "acme")
			defer r.Close()
			want, got := mmvdump(t, tool, cpath), mmvdump(t, tool, r.Path())
			if got != want {
				t.Errorf("mmvdump differs\n--- libpcp_mmv\n%s\n--- ours\n%s\n%s", want, got, lineDiff(want, got))
			} else {
				t.Logf("mmvdump: %d lines the same", strings.Count(want, "\n"))
			}
		})
	}
}

// lineDiff names the first line where a and b differ.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "first difference at line " + itoa(i+1) + ":\n  " + al[i] + "\n  " + bl[i]
		}
	}
	return "one is a prefix of the other"
}

func itoa(i int) string { return strconv.Itoa(i) }
