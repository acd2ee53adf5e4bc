package main

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
)

const killConfig = `
log mandatory on 10 msec {
	sample.colour sample.bin sample.mirage sample.string.hullo
	sample.seconds sample.long sample.ulonglong pmcd.agent
}
log mandatory on 25 msec { sample.dynamic sample.many }
`

// TestMain removes the commands built for the tests.
func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }

// startOurs starts our pmlogger against p with killConfig.
func startOurs(t *testing.T, bin string, p *testbed.PMCD, dir string, extra ...string) (*exec.Cmd, string) {
	t.Helper()
	cfg := filepath.Join(dir, "config")
	if err := os.WriteFile(cfg, []byte(killConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "archive")
	args := append([]string{"-h", p.Host(), "-c", cfg, "-l", filepath.Join(dir, "log")}, extra...)
	cmd := exec.Command(bin, append(args, base)...)
	// The bed's private run and tmp directories: a pmlogger killed here
	// leaves its socket and port map behind, which must not be in the
	// system's.
	cmd.Env = append(p.Env(), "PMLOGGER_PORT="+strconv.Itoa(freePortBase(t)))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, base
}

// completeRecords counts the whole records of every data volume by their
// length words.
func completeRecords(t *testing.T, base string) int {
	t.Helper()
	n := 0
	for vol := 0; ; vol++ {
		b, err := os.ReadFile(base + "." + strconv.Itoa(vol))
		if err != nil {
			return n
		}
		if len(b) < 8 {
			continue
		}
		off := int(binary.BigEndian.Uint32(b)) // the label
		for off+4 <= len(b) {
			l := int(binary.BigEndian.Uint32(b[off:]))
			if l < 8 || off+l > len(b) {
				break
			}
			n++
			off += l
		}
	}
}

// readOurs reads every record of an archive with package archive; it
// returns how many and the error that ended the walk (nil at the end).
func readOurs(base string) (int, error) {
	a, err := archive.Open(base, archive.Options{})
	if err != nil {
		return 0, err
	}
	r := a.NewReader()
	defer r.Close()
	var res pcp.Result
	n := 0
	for {
		err := r.Fetch(&res)
		if errors.Is(err, pcp.ErrEOL) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}

// TestSIGKILL kills our pmlogger at random moments, with volume switches
// along the way, and reads every archive left behind with our reader and
// PCP's pmdumplog: each holds every record written before the kill and
// reads without error.
func TestSIGKILL(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	bin := pcptest.GoCommand(t, ".")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 5))
	for i := 0; i < 8; i++ {
		dir := t.TempDir()
		cmd, base := startOurs(t, bin, p, dir, "-v", "15", "-V", []string{"2", "3"}[i%2])
		delay := time.Duration(rng.IntN(900)) * time.Millisecond
		time.Sleep(delay) // the random moment of the kill, not synchronisation
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		whole := completeRecords(t, base)
		n, err := readOurs(base)
		if whole == 0 {
			if err == nil {
				t.Errorf("kill %d after %v: an archive with no records opened without error", i, delay)
			}
			continue
		}
		if err != nil {
			t.Errorf("kill %d after %v: our reader: %v after %d of %d records", i, delay, err, n, whole)
		}
		if n != whole {
			t.Errorf("kill %d after %v: our reader gave %d records, the volumes hold %d", i, delay, n, whole)
		}
		res := p.Run("pmdumplog", "-a", base)
		if res.Err != nil || res.Stderr != "" {
			t.Errorf("kill %d after %v: PCP's pmdumplog: %v\n%s", i, delay, res.Err, res.Stderr)
		}
		if got := strings.Count(res.Stdout, " metrics\n") + strings.Count(res.Stdout, " metric\n"); got != whole {
			t.Errorf("kill %d after %v: PCP's pmdumplog printed %d records, the volumes hold %d", i, delay, got, whole)
		}
		t.Logf("kill %d after %v: %d records in %d volumes, all read", i, delay, whole, countVols(base))
	}
}

func countVols(base string) int {
	m, _ := filepath.Glob(base + ".[0-9]*")
	return len(m)
}

// TestSIGTERM stops our pmlogger as a service manager would: the archive
// is complete (epilogue and final index entry) and PCP's pmlogcheck finds
// nothing wrong with it.
func TestSIGTERM(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	bin := pcptest.GoCommand(t, ".")
	for _, v := range []string{"2", "3"} {
		dir := t.TempDir()
		cmd, base := startOurs(t, bin, p, dir, "-V", v, "-v", "20")
		// Wait for a second data volume: logging is under way.
		deadline := time.Now().Add(30 * time.Second)
		for {
			if _, err := os.Stat(base + ".1"); err == nil || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGTERM)
		if err := cmd.Wait(); err != nil {
			log, _ := os.ReadFile(filepath.Join(dir, "log"))
			t.Fatalf("v%s: pmlogger after SIGTERM: %v\n%s", v, err, log)
		}
		res := p.Run("pmlogcheck", base)
		if res.Err != nil || res.Stdout != "" || res.Stderr != "" {
			t.Errorf("v%s: PCP's pmlogcheck: %v\n%s%s", v, res.Err, res.Stdout, res.Stderr)
		}
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		if !strings.Contains(string(log), "New log volume 1") {
			t.Errorf("v%s: no volume switch reported:\n%s", v, log)
		}
		res = p.Run("pmdumplog", "-t", base)
		if strings.Count(res.Stdout, "\n") < 4 {
			t.Errorf("v%s: temporal index too short:\n%s", v, res.Stdout)
		}
	}
}
