package ownfile

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
)

// TestListenUnix binds beside what the directory already holds: nothing,
// a stale socket (cleared and bound), a live socket and a plain file
// (both left alone, with an error); a bound socket has the mode asked for
// and Close removes it.
func TestListenUnix(t *testing.T) {
	dir, live, stale, plain := socketFixture(t)

	for _, c := range []struct {
		path      string
		mode      os.FileMode
		wantInUse bool
		wantErr   bool
	}{
		{path: filepath.Join(dir, "new.socket"), mode: 0o777},
		{path: stale, mode: 0o666},
		{path: filepath.Join(dir, "umask.socket")},
		{path: live, wantErr: true, wantInUse: true},
		{path: plain, wantErr: true},
	} {
		before, _ := os.Lstat(c.path)
		s, err := ListenUnix(c.path, c.mode)
		if (err != nil) != c.wantErr || errors.Is(err, ErrInUse) != c.wantInUse {
			t.Errorf("ListenUnix(%s) = %v", filepath.Base(c.path), err)
		}
		if err != nil {
			if after, _ := os.Lstat(c.path); before == nil || after == nil || !os.SameFile(before, after) {
				t.Errorf("%s: refused, but the file did not stay", filepath.Base(c.path))
			}
			continue
		}
		fi, err := os.Lstat(c.path)
		if err != nil || fi.Mode()&os.ModeSocket == 0 || (c.mode != 0 && fi.Mode().Perm() != c.mode) {
			t.Errorf("%s: bound file %v, %v; want a socket of mode %v", filepath.Base(c.path), fi, err, c.mode)
		}
		if s.Path() != c.path {
			t.Errorf("Path() = %s", s.Path())
		}
		if c, err := net.Dial("unix", c.path); err != nil {
			t.Errorf("dial %s: %v", s.Path(), err)
		} else {
			c.Close()
		}
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if _, err := os.Lstat(c.path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: still there after Close (%v)", filepath.Base(c.path), err)
		}
	}
}

// TestListenUnixReplaced: a socket another process put in place of ours
// stays when ours is closed, as do files of a refused bind.
func TestListenUnixReplaced(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.socket")
	s, err := ListenUnix(path, 0o777)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(path)
	other, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := s.Close(); !errors.Is(err, ErrNotOwned) {
		t.Errorf("Close over another's socket: %v, want ErrNotOwned", err)
	}
	if _, err := os.Lstat(path); err != nil {
		t.Errorf("the other socket was removed: %v", err)
	}
}

// TestListenUnixOwnFails: when the bound file cannot be recorded as this
// process's own, ListenUnix fails rather than serving a socket it would
// leave behind: the listener is closed and the file removed.
func TestListenUnixOwnFails(t *testing.T) {
	sentinel := errors.New("cannot own")
	own = func(string) (*Owned, error) { return nil, sentinel }
	defer func() { own = Own }()
	path := filepath.Join(t.TempDir(), "s.socket")
	if s, err := ListenUnix(path, 0); !errors.Is(err, sentinel) || s != nil {
		t.Fatalf("ListenUnix = %v, %v; want the Own error", s, err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket left behind: %v", err)
	}
	if c, err := net.Dial("unix", path); err == nil {
		c.Close()
		t.Error("something still accepts on the socket")
	}
}
