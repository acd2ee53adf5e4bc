package pmval

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// damagedGolden are pmval runs over damaged archives: PCP's QA archive
// multi-corrupted, and the spoiled copies of QA archives kept in
// pmapi/testdata/damaged (see pmapi's damagedArchives for what each
// damage is).
var damagedGolden = []struct {
	name string
	args []string
}{
	{"multi-corrupted", []string{"-t", "30", "kernel.all.load"}},
	{"multi-corrupted window", []string{"-t", "17", "-S", "+3min", "-T", "+12min", "kernel.all.load"}},
	{"multi-corrupted counter", []string{"-t", "1m", "disk.dev.read"}},
	{"gap-cut", []string{"-t", "1", "pmcd.pdu_in.error"}},
	{"gap-cut raw", []string{"-t", "2.5", "-r", "proc.nprocs"}},
	{"gap-first", []string{"-t", "2.5", "pmcd.pdu_in.error"}},
	{"gap-first window", []string{"-t", "2.5", "-S", "+2.5", "pmcd.pdu_in.error"}},
	{"gap-trailer records", []string{"-U", "", "-r", "pmcd.pdu_in.error"}},
	{"dyninsts-epoch", []string{"-t", "1.5", "disk.dev.write"}},
	{"dyninsts-roll", []string{"-t", "1.5", "disk.dev.write"}},
	{"changeinst-end", []string{"-t", "1", "-S", "+1", "irix.network.interface.total.packets"}},
	{"okmv-vol1", []string{"-t", "0.2", "sampledso.milliseconds"}},
	{"okmv-len", []string{"-t", "0.5", "-r", "sampledso.bin"}},
	{"short-index", []string{"-t", "10", "kernel.all.load"}},
	{"short-meta", []string{"-t", "10", "kernel.all.load"}},
	{"short-len", []string{"-t", "10", "kernel.all.load"}},
	// a fetch past the end while libpcp still reads in an archive before
	// the damaged one: it reads on into the damage
	{"multi-corrupted past-end", []string{"-t", "1hour", "-S", "+10", "-s", "5", "kernel.all.load"}},
	// an index entry that names no record's boundary: libpcp's reads
	// from where pmSetMode placed it fail
	{"pcp-mpstat3 bad-index", []string{"-A", "5", "-w", "20", "-s", "4", "-t", "0.5", "-z", "-T", "+2.5", "kernel.all.cpu.guest"}},
}

// qaDamaged are the QA archives of damagedGolden; the other names are
// spoiled copies in pmapi/testdata/damaged.
var qaDamaged = map[string]bool{"multi-corrupted": true, "pcp-mpstat3": true}

// TestDamagedGolden runs pmval over damaged archives and compares what
// it prints with PCP's pmval, kept in testdata/damaged (UPDATE_GOLDEN=1
// records PCP's output again) and, where PCP is installed, run live too:
// the steps before the damage, then PCP's error and exit status.
func TestDamagedGolden(t *testing.T) {
	update := os.Getenv("UPDATE_GOLDEN") != ""
	var bin string
	if p, err := exec.LookPath("pmval"); err == nil {
		bin = p
	} else if update || pcptest.Required() {
		bin = pcptest.NeedTool(t, "pmval")
	}
	for _, v := range clitest.ArchiveEnv {
		name, value, _ := strings.Cut(v, "=")
		t.Setenv(name, value)
	}
	saved := time.Local
	t.Cleanup(func() { time.Local = saved })
	for _, tc := range damagedGolden {
		t.Run(tc.name, func(t *testing.T) {
			archive, _, _ := strings.Cut(tc.name, " ")
			if qaDamaged[archive] {
				archive = clitest.QAArchive(t, archive)
			} else {
				archive = filepath.Join("..", "..", "..", "pmapi", "testdata", "damaged", archive)
			}
			args := append([]string{"-a", archive}, tc.args...)
			for i, a := range args {
				if a == "" && i > 0 && args[i-1] == "-U" {
					args[i] = archive
				}
			}
			golden := filepath.Join("testdata", "damaged", strings.ReplaceAll(tc.name, " ", "-")+".out")
			var live string
			if bin != "" {
				stdout, stderr, code := clitest.RunCmd(t, exec.Command(bin, args...))
				live = transcript(string(stdout), string(stderr), code)
			}
			if update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(live), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			kept, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (UPDATE_GOLDEN=1 records PCP's output)", err)
			}
			if live != "" && live != string(kept) {
				t.Errorf("PCP's pmval now prints other than %s\n%s", golden, clitest.Diff(string(kept), live))
			}
			var stdout, stderr bytes.Buffer
			time.Local = time.UTC
			code := run(context.Background(), append([]string{"pmval"}, args...), &stdout, &stderr)
			if got := transcript(stdout.String(), stderr.String(), code); got != string(kept) {
				t.Errorf("pmval %s differs from PCP's\n%s", strings.Join(args, " "), clitest.Diff(string(kept), got))
			}
		})
	}
}

// transcript is one run's output as the golden files keep it.
func transcript(stdout, stderr string, code int) string {
	return fmt.Sprintf("== stdout\n%s== stderr\n%s== exit %d\n", stdout, stderr, code)
}
