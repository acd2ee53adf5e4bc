package ownfile

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// deadPID is the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// snapshot is a file's content and identity, to show it untouched.
type snapshot struct {
	data string
	fi   os.FileInfo
}

func snap(t *testing.T, path string) snapshot {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return snapshot{string(data), fi}
}

func (s snapshot) check(t *testing.T, path string) {
	t.Helper()
	now := snap(t, path)
	if now.data != s.data || !os.SameFile(now.fi, s.fi) {
		t.Errorf("%s changed: %q, same file %v; was %q", path, now.data, os.SameFile(now.fi, s.fi), s.data)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOpenLog: the old log goes to .prev and a new one is made, unless
// another live process writes to the log or to its .prev, when nothing
// is touched; a process only reading it does not stop the move.
func TestOpenLog(t *testing.T) {
	cases := []struct {
		name     string
		log      string // "" for no log
		prev     string // "" for no .prev
		hold     string // "log" or "prev": held open for writing
		reader   bool   // the log is held open, for reading only
		wantBusy bool
	}{
		{name: "fresh"},
		{name: "old log", log: "old\n", prev: "older\n"},
		{name: "log of a live writer", log: "live\n", prev: "older\n", hold: "log", wantBusy: true},
		{name: "prev of a live writer", log: "old\n", prev: "live\n", hold: "prev", wantBusy: true},
		{name: "log being read", log: "old\n", reader: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "pmcd.log")
			prev := path + ".prev"
			if c.log != "" {
				write(t, path, c.log)
			}
			if c.prev != "" {
				write(t, prev, c.prev)
			}
			holder := 0
			switch {
			case c.hold == "log":
				holder = pcptest.HoldOpen(t, path, false)
			case c.hold == "prev":
				holder = pcptest.HoldOpen(t, prev, false)
			case c.reader:
				pcptest.HoldOpen(t, path, true)
			}
			var before []snapshot
			if c.wantBusy {
				before = []snapshot{snap(t, path), snap(t, prev)}
			}
			f, err := OpenLog(path)
			if c.wantBusy {
				var iu *InUseError
				if !errors.As(err, &iu) || !errors.Is(err, ErrInUse) || iu.PID != holder {
					t.Fatalf("OpenLog = %v, want InUseError naming %d", err, holder)
				}
				before[0].check(t, path)
				before[1].check(t, prev)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString("new\n"); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(path); string(got) != "new\n" {
				t.Errorf("log holds %q", got)
			}
			got, err := os.ReadFile(prev)
			if c.log == "" {
				if !errors.Is(err, os.ErrNotExist) {
					t.Errorf("a .prev with no old log: %q %v", got, err)
				}
			} else if string(got) != c.log {
				t.Errorf(".prev holds %q, want the old log %q", got, c.log)
			}
		})
	}
}

// TestTakePID: a pid file is taken when absent or stale, refused when it
// names another live process, and released only while it is still this
// process's.
func TestTakePID(t *testing.T) {
	live := 0
	cases := []struct {
		name     string
		content  func() string // nil: no file
		wantBusy bool
	}{
		{name: "none"},
		{name: "stale", content: func() string { return strconv.Itoa(deadPID(t)) }},
		{name: "garbage", content: func() string { return "not a pid\n" }},
		{name: "this process's", content: func() string { return strconv.Itoa(os.Getpid()) + "\n" }},
		{name: "a live process's", content: func() string { return strconv.Itoa(live) }, wantBusy: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "pmcd.pid")
			var before snapshot
			if c.content != nil {
				if c.wantBusy {
					live = pcptest.HoldOpen(t, dir, true)
				}
				write(t, path, c.content())
				before = snap(t, path)
			}
			p, err := TakePID(path, os.Getpid())
			if c.wantBusy {
				var iu *InUseError
				if !errors.As(err, &iu) || iu.PID != live {
					t.Fatalf("TakePID = %v, want InUseError naming %d", err, live)
				}
				before.check(t, path)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(path); string(got) != strconv.Itoa(os.Getpid()) {
				t.Errorf("pid file holds %q", got)
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o444 {
				t.Errorf("mode %v, want PCP's 0444", fi.Mode().Perm())
			}
			if err := p.Release(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("released pid file still there: %v", err)
			}
		})
	}
}

// TestPIDFileReleaseOnlyOwn: a pid file replaced by another process's,
// or rewritten in place with another pid as PCP's daemons do, survives
// Release.
func TestPIDFileReleaseOnlyOwn(t *testing.T) {
	for _, how := range []string{"replaced", "rewritten"} {
		t.Run(how, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "pmcd.pid")
			p, err := TakePID(path, os.Getpid())
			if err != nil {
				t.Fatal(err)
			}
			other := strconv.Itoa(os.Getpid() + 1)
			if how == "replaced" {
				write(t, path+".new", other)
				if err := os.Rename(path+".new", path); err != nil {
					t.Fatal(err)
				}
			} else {
				os.Chmod(path, 0o644)
				write(t, path, other)
			}
			err = p.Release()
			if got, _ := os.ReadFile(path); string(got) != other {
				t.Errorf("another's pid file removed or changed: %q (Release: %v)", got, err)
			}
		})
	}
}

// TestOwnedRemove: the file made is removed; one put in its place is not.
func TestOwnedRemove(t *testing.T) {
	path := filepath.Join(t.TempDir(), "12345")
	write(t, path, "mine")
	o, err := Own(path)
	if err != nil {
		t.Fatal(err)
	}
	// Another process's file put in its place, made while ours exists
	// so that it cannot be given our inode number.
	write(t, path+".new", "theirs")
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	if err := o.Remove(); !errors.Is(err, ErrNotOwned) {
		t.Errorf("Remove of a replaced file: %v, want ErrNotOwned", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "theirs" {
		t.Errorf("replacement removed: %q", got)
	}
	os.Remove(path)
	write(t, path, "mine again")
	if o, err = Own(path); err != nil {
		t.Fatal(err)
	}
	if err := o.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("own file not removed: %v", err)
	}
	if err := o.Remove(); err != nil {
		t.Errorf("second Remove: %v", err)
	}
	var none *Owned
	if err := none.Remove(); err != nil {
		t.Errorf("nil Remove: %v", err)
	}
}

// socketFixture is a directory holding a socket something accepts on
// (live, until the test ends), a stale one nothing accepts on, and a
// plain file.
func socketFixture(t *testing.T) (dir, live, stale, plain string) {
	t.Helper()
	dir = t.TempDir()
	live = filepath.Join(dir, "live.socket")
	l, err := net.Listen("unix", live)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	stale = filepath.Join(dir, "stale.socket")
	sl, err := net.Listen("unix", stale)
	if err != nil {
		t.Fatal(err)
	}
	sl.(*net.UnixListener).SetUnlinkOnClose(false)
	sl.Close()
	plain = filepath.Join(dir, "plain")
	write(t, plain, "x")
	return dir, live, stale, plain
}

// fullSocket is a Unix-domain socket listening with a backlog of none,
// one connection already waiting on it: a further connection finds it
// full (a non-blocking connect gets EAGAIN).
func fullSocket(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "full.socket")
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return path
}

// TestClearSocket: a socket something accepts on, or whose backlog is
// full, is left in place, a stale one is removed, a file of another kind
// is left with an error.
func TestClearSocket(t *testing.T) {
	dir, live, stale, plain := socketFixture(t)
	full := fullSocket(t, dir)

	cases := []struct {
		path      string
		wantErr   bool
		wantInUse bool
		wantGone  bool
	}{
		{path: filepath.Join(dir, "absent.socket"), wantGone: true},
		{path: stale, wantGone: true},
		{path: live, wantErr: true, wantInUse: true},
		{path: full, wantErr: true, wantInUse: true},
		{path: plain, wantErr: true},
	}
	for _, c := range cases {
		err := ClearSocket(c.path)
		if (err != nil) != c.wantErr || errors.Is(err, ErrInUse) != c.wantInUse {
			t.Errorf("ClearSocket(%s) = %v", filepath.Base(c.path), err)
		}
		_, serr := os.Lstat(c.path)
		if gone := errors.Is(serr, os.ErrNotExist); gone != c.wantGone {
			t.Errorf("%s: gone %v, want %v", filepath.Base(c.path), gone, c.wantGone)
		}
	}
}

// TestOpenLogDirectory: a directory where the log should be is left as
// it is (not moved to .prev) and the open fails with EISDIR, as
// libpcp's does.
func TestOpenLogDirectory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pmcd.log")
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(path, "inside"), "kept\n")
	f, err := OpenLog(path)
	if err == nil {
		f.Close()
	}
	if !errors.Is(err, syscall.EISDIR) {
		t.Fatalf("OpenLog on a directory = %v, want EISDIR", err)
	}
	if _, err := os.Stat(filepath.Join(path, "inside")); err != nil {
		t.Errorf("the directory was touched: %v", err)
	}
	if _, err := os.Lstat(path + ".prev"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a .prev was made: %v", err)
	}
}
