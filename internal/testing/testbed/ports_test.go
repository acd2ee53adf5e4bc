package testbed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The ports tests re-execute the test binary as a second process; these
// variables tell it what to do (see TestMain).
const (
	portsChildEnv     = "GOPCP_TESTBED_PORTS_CHILD" // "reserve" or "lock"
	portsChildDirEnv  = "GOPCP_TESTBED_PORTS_DIR"
	portsChildListEnv = "GOPCP_TESTBED_PORTS_LIST"
)

// portsChild is the second process. "reserve": try to reserve exactly the
// listed ports through the shared lock directory, print "reserved P" or
// "none", then reserve any port and print "new P". "lock": try the lock of
// each listed port in the given directory, printing "P locked" or
// "P busy", and exit holding the ones it took.
func portsChild(mode string) int {
	var list []int
	for _, s := range strings.Split(os.Getenv(portsChildListEnv), ",") {
		p, err := strconv.Atoi(s)
		if err != nil {
			fmt.Fprintln(os.Stderr, "ports child: bad list:", err)
			return 2
		}
		list = append(list, p)
	}
	switch mode {
	case "reserve":
		dir, err := portLockDir()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		switch p, err := reserveFrom(dir, list); {
		case errors.Is(err, errNoPort):
			fmt.Println("none")
		case err != nil:
			fmt.Fprintln(os.Stderr, err)
			return 1
		default:
			fmt.Println("reserved", p)
		}
		p, err := reservePort()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println("new", p)
	case "lock":
		for _, p := range list {
			_, err := lockPort(os.Getenv(portsChildDirEnv), p)
			switch {
			case errors.Is(err, syscall.EWOULDBLOCK):
				fmt.Println(p, "busy")
			case err != nil:
				fmt.Fprintln(os.Stderr, err)
				return 1
			default:
				fmt.Println(p, "locked")
			}
		}
	default:
		fmt.Fprintln(os.Stderr, "ports child: unknown mode", mode)
		return 2
	}
	return 0
}

// runPortsChild runs the test binary as the second process and returns
// what it printed, one line an element.
func runPortsChild(t *testing.T, mode, dir string, list []int) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	defer cancel()
	var s []string
	for _, p := range list {
		s = append(s, strconv.Itoa(p))
	}
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), portsChildEnv+"="+mode, portsChildDirEnv+"="+dir,
		portsChildListEnv+"="+strings.Join(s, ","))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("second process: %v\n%s", err, stderr.String())
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// TestPortHeldAcrossProcesses: ports one process holds (reserved, with
// nothing listening on them yet, as before a daemon binds) are never
// handed to another process, which still gets a port of its own.
func TestPortHeldAcrossProcesses(t *testing.T) {
	var held []int
	for range 4 {
		p, release, err := FreePort()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(release)
		if slices.Contains(held, p) {
			t.Fatalf("port %d handed out twice in one process", p)
		}
		held = append(held, p)
	}
	out := runPortsChild(t, "reserve", "", held)
	if len(out) != 2 || out[0] != "none" {
		t.Fatalf("second process, offered only the ports this one holds %v, printed %q; want none", held, out)
	}
	q, err := strconv.Atoi(strings.TrimPrefix(out[1], "new "))
	if !strings.HasPrefix(out[1], "new ") || err != nil || q < privatePorts()[0] || q > privatePorts()[1] {
		t.Fatalf("second process's own reservation: %q", out[1])
	}
	if slices.Contains(held, q) {
		t.Errorf("second process reserved %d, which this one holds (%v)", q, held)
	}
}

// TestPortLockPerProcess: in a private lock directory, a port's lock is
// exclusive within a process and across processes, is free again once
// released, and is dropped by the kernel when the process holding it
// exits.
func TestPortLockPerProcess(t *testing.T) {
	dir := t.TempDir()
	files := map[int]*os.File{}
	for _, p := range []int{1, 2, 3, 4} {
		f, err := lockPort(dir, p)
		if err != nil {
			t.Fatalf("lock %d: %v", p, err)
		}
		files[p] = f
	}
	t.Cleanup(func() {
		for _, f := range files {
			f.Close()
		}
	})
	if _, err := lockPort(dir, 1); !errors.Is(err, syscall.EWOULDBLOCK) {
		t.Errorf("second lock of 1 in the same process: %v, want EWOULDBLOCK", err)
	}
	for _, p := range []int{3, 4} {
		files[p].Close()
		delete(files, p)
	}
	out := runPortsChild(t, "lock", dir, []int{1, 2, 3, 4})
	want := []string{"1 busy", "2 busy", "3 locked", "4 locked"}
	if !slices.Equal(out, want) {
		t.Errorf("second process, with 1 and 2 held here and 3 and 4 released, printed %q, want %q", out, want)
	}
	// The second process has exited holding 3 and 4.
	for _, p := range []int{3, 4} {
		f, err := lockPort(dir, p)
		if err != nil {
			t.Errorf("lock %d after the process holding it exited: %v", p, err)
			continue
		}
		files[p] = f
	}
}

// TestReleasePort: a released port's lock is dropped, so it can be taken
// again, and releasing a port twice or one never reserved is harmless.
func TestReleasePort(t *testing.T) {
	p, release, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	ports.Lock()
	f := ports.held[p]
	ports.Unlock()
	if f == nil {
		t.Fatalf("port %d reserved but no lock file held", p)
	}
	release()
	release()
	releasePort(1)
	ports.Lock()
	_, still := ports.held[p]
	ports.Unlock()
	if still {
		t.Errorf("port %d still held after release", p)
	}
	// The file is closed, so its lock is gone.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err, syscall.EBADF) {
		t.Errorf("lock file after release: flock gives %v, want EBADF (closed)", err)
	}
}

// TestPortLockDir: the shared lock directory is made like /tmp, so runs
// by any user share it and none removes another's lock files.
func TestPortLockDir(t *testing.T) {
	dir, err := portLockDir()
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := os.ModeDir | os.ModeSticky | 0o777; fi.Mode() != want {
		t.Errorf("%s: mode %v, want %v", dir, fi.Mode(), want)
	}
}

// TestReleaseTwice: a FreePort release called again after the port has
// gone to another reservation of this process leaves that one held.
func TestReleaseTwice(t *testing.T) {
	p, release, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	release()
	// Another reservation of p, made directly (a private lock directory,
	// no probe) so that nothing else on the machine can interfere.
	f, err := lockPort(t.TempDir(), p)
	if err != nil {
		t.Fatal(err)
	}
	ports.Lock()
	ports.held[p] = f
	ports.Unlock()
	t.Cleanup(func() { releasePort(p) })
	release()
	ports.Lock()
	got := ports.held[p]
	ports.Unlock()
	if got != f {
		t.Errorf("second release of port %d gave back the reservation that took it after the first", p)
	}
}

// TestPortLockDirIgnoresTMPDIR: a run with its own TMPDIR shares the
// reservations of runs with another (each run's t.TempDir differs).
func TestPortLockDirIgnoresTMPDIR(t *testing.T) {
	if fi, err := os.Stat("/tmp"); err != nil || !fi.IsDir() {
		t.Skip("no /tmp: the lock directory follows TMPDIR here")
	}
	t.Setenv("TMPDIR", t.TempDir())
	dir, err := portLockDir()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join("/tmp", portLockDirName); dir != want {
		t.Errorf("lock directory %s with TMPDIR=%s, want %s", dir, os.Getenv("TMPDIR"), want)
	}
}
