package pmda

import (
	"flag"
	"io"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestMainLeavesProgramsSignals: a program of its own that asks for
// SIGUSR1 (say, to reopen its log) and then runs DaemonOptions.Main still
// gets the signal: Main, a library function, leaves the signals as the
// program has them (our agents' mains give SIGUSR1 its default action
// themselves, as PCP's agents have it). Before, Main gave it the default
// action behind the program's back and the signal killed it.
func TestMainLeavesProgramsSignals(t *testing.T) {
	if os.Getenv("GOPCP_PMDA_NOTIFY_CHILD") == "1" {
		got := make(chan os.Signal, 1)
		signal.Notify(got, syscall.SIGUSR1)
		go func() {
			<-got
			os.Exit(7) // the program's own handler ran
		}()
		o := DaemonOptions{Domain: 250}
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		o.Flags(fs)
		os.Exit(o.Main(fs, []string{"-l", filepath.Join(os.Getenv("GOPCP_PMDA_NOTIFY_DIR"), "x.log")}, func(*log.Logger) (*Agent, error) {
			return New(Config{Name: "x", Domain: o.Domain, Fetcher: &testFetcher{}})
		}))
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMainLeavesProgramsSignals$")
	cmd.Env = append(os.Environ(), "GOPCP_PMDA_NOTIFY_CHILD=1", "GOPCP_PMDA_NOTIFY_DIR="+t.TempDir())
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
	// its first words (the credentials PDU): Main is serving by then
	var b [1]byte
	if _, err := io.ReadFull(out, b[:]); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the child said nothing: %v", err)
	}
	cmd.Process.Signal(syscall.SIGUSR1)
	io.Copy(io.Discard, out)
	cmd.Wait()
	if got := pcptest.HowEnded(cmd.ProcessState); got != "exit status 7" {
		t.Errorf("child: %s, want exit status 7 from its own handler", got)
	}
}
