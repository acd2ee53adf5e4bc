package testbed

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDaemonDiesWithTestBinary: a daemon started by the test bed does not
// outlive a test binary that ends without running its cleanups, as one
// stopped by go test's timeout does.
func TestDaemonDiesWithTestBinary(t *testing.T) {
	if os.Getenv("GOPCP_TESTBED_CHILD") == "1" {
		p, err := startProc(exec.Command("sleep", "600"))
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("pid", p.pid())
		os.Exit(0) // no cleanups, no stop
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDaemonDiesWithTestBinary$")
	cmd.Env = append(os.Environ(), "GOPCP_TESTBED_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == "pid" {
			pid, _ = strconv.Atoi(f[1])
		}
	}
	cmd.Wait()
	if pid <= 0 {
		t.Fatal("the child test binary started no daemon")
	}
	// The daemon, orphaned, is reaped by init once killed; wait
	// (bounded) for it to be gone.
	for i := 0; ; i++ {
		if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
			return
		}
		if i == 200 {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("daemon %d still running 10 s after the test binary that started it ended", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
