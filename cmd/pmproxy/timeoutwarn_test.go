package main

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// runTimeoutWarnings starts bin with -f and env on a free port, asks it
// for a context on each hostspec in turn, stops it and gives its log,
// masked, up to its SIGTERM line.
func runTimeoutWarnings(t *testing.T, bin string, env []string, hosts []string) string {
	t.Helper()
	dir := t.TempDir()
	conf := filepath.Join(dir, "pmproxy.conf")
	if err := os.WriteFile(conf, []byte("[redis]\nenabled = false\n[discover]\nenabled = false\n[pmseries]\nenabled = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "pmproxy.log")
	port := testbed.ReservedPort(t)
	cmd := exec.Command(bin, "-f", "-A", "-T", "120", "-p", strconv.Itoa(port), "-c", conf, "-l", logPath, "-s", filepath.Join(dir, "pmproxy.socket"))
	cmd.Env = append(os.Environ(), append([]string{"PCP_RUN_DIR=" + dir, "PCP_TMP_DIR=" + dir}, env...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := pcptest.StartKept(cmd); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	defer func() {
		cmd.Process.Kill()
		<-done
	}()
	// Polled; the deadline only bounds a broken run.
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(logPath); strings.Contains(string(b), "request port(s)") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not serve", bin)
		}
	}
	client := &http.Client{Timeout: 60 * time.Second}
	for _, h := range hosts {
		resp, err := client.Get("http://127.0.0.1:" + strconv.Itoa(port) + "/pmapi/context?hostspec=" + h)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("%s did not end on SIGTERM", bin)
	}
	b, _ := os.ReadFile(logPath)
	// up to SIGTERM: PCP's pmproxy 6.0.3 then dies of SIGSEGV in its
	// shutdown when web contexts are open, leaving its log there
	log, _, _ := strings.Cut(string(b), "caught SIGTERM")
	return maskLog(log, dir, []int{port})
}

// TestTimeoutWarningsLikePCP: PCP's pmproxy logs libpcp's warning about
// a PMCD_CONNECT_TIMEOUT it ignores when it first connects to a pmcd,
// and the one about PMCD_REQUEST_TIMEOUT when it first waits for a
// pmcd's answer, so not while no pmcd was reached; each once. Ours logs
// the same, asked for a context on a port where nothing listens, then
// twice on a pmcd (PCP's, private).
func TestTimeoutWarningsLikePCP(t *testing.T) {
	t.Parallel()
	theirs, ours := pmproxyPair(t)
	bed := testbed.StartPMCD(t, testbed.Options{})
	good := "localhost:" + strconv.Itoa(bed.Port())
	refused := "localhost:" + strconv.Itoa(testbed.ReservedPort(t))
	for _, env := range [][]string{
		{"PMCD_CONNECT_TIMEOUT=bogus", "PMCD_REQUEST_TIMEOUT=-1"},
		{"PMCD_REQUEST_TIMEOUT=5s"},
		{"PMCD_CONNECT_TIMEOUT=0x10", "PMCD_REQUEST_TIMEOUT= 2"},
	} {
		hosts := []string{refused, good, good}
		want := runTimeoutWarnings(t, theirs, env, hosts)
		got := runTimeoutWarnings(t, ours, env, hosts)
		if got != want {
			t.Errorf("%v: ours:\n%s\nPCP's:\n%s", env, got, want)
		}
	}
}
