package pmda_test

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// endBy starts an agent on pipes, as pmcd runs it, waits for its first
// words (the credentials PDU: it is set up by then), sends it sig and
// says how it ended.
func endBy(t *testing.T, sig syscall.Signal, bin string, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(bin, append(args, "-l", filepath.Join(dir, "agent.log"))...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PCP_TMP_DIR="+dir, "PCP_RUN_DIR="+dir)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		var b [1]byte
		io.ReadFull(out, b[:])
		cmd.Process.Signal(sig)
		io.Copy(io.Discard, out)
		done <- cmd.Wait()
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		return "still running"
	}
	return pcptest.HowEnded(cmd.ProcessState)
}

// TestDaemonSignalsLikePCP sends PCP's pmdatrace and ours (DaemonOptions.
// Main), and PCP's pmdasample and ours (a main of its own), the signals
// libpcp_pmda sets no handler for: SIGUSR1 and SIGALRM end both, SIGXFSZ
// too (with a core where the limit allows one).
func TestDaemonSignalsLikePCP(t *testing.T) {
	sigs := []syscall.Signal{syscall.SIGUSR1, syscall.SIGALRM}
	if pcptest.NoCores(t) {
		sigs = append(sigs, syscall.SIGXFSZ)
	}
	// pmdatrace listens for programs: on a private port, not PCP's 4323.
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	for _, agent := range []struct {
		name string
		args []string
	}{{"trace", []string{"-d", "30", "-I", strconv.Itoa(port)}}, {"sample", []string{"-d", "29"}}} {
		theirs := "/var/lib/pcp/pmdas/" + agent.name + "/pmda" + agent.name
		if _, err := os.Stat(theirs); err != nil {
			pcptest.Missing(t, "PCP's pmda"+agent.name+": "+err.Error())
		}
		ours := pcptest.GoCommand(t, "github.com/gopcp/gopcp/cmd/pmda"+agent.name)
		for _, sig := range sigs {
			want := endBy(t, sig, theirs, agent.args...)
			got := endBy(t, sig, ours, agent.args...)
			if want != "killed by "+sig.String() {
				t.Errorf("PCP's pmda%s and %v: %s", agent.name, sig, want)
			}
			if got != want {
				t.Errorf("pmda%s, %v: ours %s, PCP's %s", agent.name, sig, got, want)
			}
		}
	}
}
