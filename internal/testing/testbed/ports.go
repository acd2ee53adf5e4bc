package testbed

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
)

// portLockDirName is the directory, under /tmp (os.TempDir() only where
// there is no /tmp), that holds one lock file per private port. It is
// shared by every test run on the machine, whoever runs it and whatever
// its TMPDIR, so that a port one process has reserved but whose daemon
// has not bound it yet is not handed out by another.
const portLockDirName = "gopcp-testbed-ports"

// ports remembers the lock file of each private port this process holds.
// The flock alone would refuse a second reservation in this process too
// (the lock belongs to the open file, not the process), but the map is
// what releasePort needs to find the file to close.
var ports = struct {
	sync.Mutex
	held map[int]*os.File
}{held: make(map[int]*os.File)}

// reservePort finds a port in the private range that no other reservation,
// in this process or any other, holds and that nothing is listening on,
// and holds it until releasePort. Holding it until the daemon given it
// has exited is what keeps two test runs from binding the same port.
func reservePort() (int, error) {
	dir, err := portLockDir()
	if err != nil {
		return 0, err
	}
	r := privatePorts()
	span := r[1] - r[0] + 1
	start := rand.IntN(span)
	candidates := make([]int, span)
	for i := range candidates {
		candidates[i] = r[0] + (start+i)%span
	}
	p, err := reserveFrom(dir, candidates)
	if errors.Is(err, errNoPort) {
		err = fmt.Errorf("%w in %d-%d", err, r[0], r[1])
	}
	return p, err
}

// reserveFrom reserves the first of candidates whose lock in dir it can
// take and that nothing listens on.
func reserveFrom(dir string, candidates []int) (int, error) {
	ports.Lock()
	defer ports.Unlock()
	for _, p := range candidates {
		if ports.held[p] != nil {
			continue
		}
		f, err := lockPort(dir, p)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			continue // another process holds it
		}
		if err != nil {
			return 0, err
		}
		// A port locked by nobody may still be in use by a program that
		// does not take these locks (or a daemon that outlived its test).
		if !portFree(p) {
			f.Close()
			continue
		}
		ports.held[p] = f
		return p, nil
	}
	return 0, errNoPort
}

func releasePort(p int) {
	ports.Lock()
	f := ports.held[p]
	delete(ports.held, p)
	ports.Unlock()
	if f != nil {
		// Closing the only descriptor of the open file drops its flock.
		f.Close()
	}
}

// lockPort takes, without waiting, an exclusive flock on port p's lock
// file in dir. It fails with EWOULDBLOCK if another open file holds it.
// The kernel drops the lock when the file is closed or its process dies,
// so a crashed test run never leaves a port reserved; the files
// themselves stay, harmless. The file is opened read-only (flock needs
// no more) and close-on-exec, so daemons started later do not inherit
// the lock and keep the port reserved after the test.
func lockPort(dir string, p int) (*os.File, error) {
	path := filepath.Join(dir, strconv.Itoa(p))
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		// O_EXCL: in a sticky, world-writable directory the kernel may
		// refuse O_CREAT on another user's file (fs.protected_regular),
		// so an existing file is only ever opened without it.
		f, err = os.OpenFile(path, os.O_RDONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			f, err = os.Open(path) // created by another process meanwhile
		}
	}
	if err != nil {
		return nil, fmt.Errorf("testbed: port lock: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		if err == syscall.EWOULDBLOCK {
			return nil, err
		}
		return nil, fmt.Errorf("testbed: port lock %s: %w", path, err)
	}
	return f, nil
}

// portLockBase is where the lock directory lives: /tmp, whatever TMPDIR
// says, since two runs with different TMPDIRs would otherwise keep
// separate reservations and only the moment's check that a port is free
// would stand between them.
func portLockBase() string {
	if fi, err := os.Stat("/tmp"); err == nil && fi.IsDir() {
		return "/tmp"
	}
	return os.TempDir()
}

// portLockDir returns the shared lock directory, creating it like /tmp
// (world-writable, sticky) so that runs by any user share it.
func portLockDir() (string, error) {
	dir := filepath.Join(portLockBase(), portLockDirName)
	const mode = os.ModeSticky | 0o777
	err := os.Mkdir(dir, mode)
	switch {
	case err == nil:
		// Mkdir's mode is cut by the umask.
		if err := os.Chmod(dir, mode); err != nil {
			return "", fmt.Errorf("testbed: port lock directory: %w", err)
		}
	case errors.Is(err, os.ErrExist):
		fi, err := os.Stat(dir)
		if err != nil || !fi.IsDir() {
			return "", fmt.Errorf("testbed: port lock directory %s is not a directory", dir)
		}
		if fi.Mode()&mode != mode {
			// Made by a run that lost the race to chmod, or by hand;
			// only its owner can fix it, and others can still use it.
			os.Chmod(dir, mode)
		}
	default:
		return "", fmt.Errorf("testbed: port lock directory: %w", err)
	}
	return dir, nil
}

// portFree reports whether the port can be bound on the wildcard address,
// which is what pmcd, pmlogger and socket agents will try.
func portFree(p int) bool {
	l, err := net.Listen("tcp", ":"+strconv.Itoa(p))
	if err != nil {
		return false
	}
	l.Close()
	return true
}
