package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// What differs between two runs of either program: the file's path, the
// generation, the pid, and the values the random work makes.
var mask = regexp.MustCompile(`(?m)^(MMV file   =|Generated  =|Process    =) .*$|( = )\d+$`)

func dump(t *testing.T, mmvdump, path string) string {
	t.Helper()
	out, err := exec.Command(mmvdump, path).CombinedOutput()
	if err != nil {
		t.Fatalf("mmvdump %s: %v\n%s", path, err, out)
	}
	return mask.ReplaceAllString(string(out), "$1$2(masked)")
}

// TestSameAsPCPAcme builds PCP's demo acme.c against libpcp_mmv, lets it
// write its file, and compares PCP's mmvdump of that file with this
// example's: the same registry, section by section, value masked.
func TestSameAsPCPAcme(t *testing.T) {
	in := testbed.Need(t)
	src := "/usr/share/pcp/demos/mmv/acme.c"
	if _, err := os.Stat(src); err != nil {
		pcptest.Missing(t, "PCP's demo acme.c is not installed")
	}
	if _, err := os.Stat("/usr/include/pcp/mmv_stats.h"); err != nil {
		pcptest.Missing(t, "libpcp-mmv1-dev is not installed")
	}
	mmvdump := filepath.Join(in.Var("PCP_PMDAS_DIR"), "mmv", "mmvdump")
	acme := pcptest.HarnessWith(t, src, "-O1", "-Wl,--no-as-needed", "-lpcp_mmv", "-lpcp")

	tmp := t.TempDir()
	cdir := filepath.Join(tmp, "mmv")
	if err := os.Mkdir(cdir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(acme)
	cmd.Env = append(os.Environ(), "PCP_TMP_DIR="+tmp)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	cfile := filepath.Join(cdir, "acme")
	for deadline := time.Now().Add(30 * time.Second); ; {
		if b, err := os.ReadFile(cfile); err == nil && len(b) > 40 && string(b[16:24]) != "\x00\x00\x00\x00\x00\x00\x00\x00" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("PCP's acme wrote no file")
		}
		time.Sleep(20 * time.Millisecond)
	}

	godir := t.TempDir()
	r, f, err := open(godir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f.make(1, 1234)
	want, got := dump(t, mmvdump, cfile), dump(t, mmvdump, r.Path())
	if got != want {
		t.Errorf("mmvdump differs\nPCP's acme:\n%s\nours:\n%s", want, got)
	}
}

// TestMake checks one product's bookkeeping.
func TestMake(t *testing.T) {
	r, f, err := open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f.make(2, 100)
	f.make(0, 5)
	for _, c := range []struct {
		name string
		got  int64
		want int64
	}{
		{"count[2]", f.count[2].Int(), 1}, {"count[1]", f.count[1].Int(), 0},
		{"machine[2]", f.machine[2].Int(), 100}, {"machine[0]", f.machine[0].Int(), 5},
		{"queue[1]", f.queue[1].Int(), 105}, {"queue[2]", f.queue[2].Int(), 5}, {"queue[0]", f.queue[0].Int(), 100},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}
