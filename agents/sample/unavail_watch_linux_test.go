package sample

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWatchedFile: after each change to the directory the next answer
// is access(2)'s, whether the answer came from the watch or, where the
// watch cannot tell (a symbolic link, a directory gone), from asking.
// Where no watch could be made (no inotify instance left for the user,
// a file system inotify cannot follow) the answers are still checked,
// and which came from the watch is not.
func TestWatchedFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "d")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "sample.unavail")
	in := func(name string) string { return filepath.Join(dir, name) }
	w := newWatchedFile(path)
	t.Cleanup(func() {
		if w.fd >= 0 {
			w.stop()
		}
	})
	steps := []struct {
		what     string
		do       func() error
		want     bool
		watching bool // answered from the watch
	}{
		{"absent", func() error { return nil }, false, true},
		{"created", func() error { return os.WriteFile(path, nil, 0o600) }, true, true},
		{"other files come and go", func() error {
			if err := os.WriteFile(in("other"), nil, 0o600); err != nil {
				return err
			}
			return os.Remove(in("other"))
		}, true, true},
		{"removed", func() error { return os.Remove(path) }, false, true},
		{"renamed in", func() error {
			if err := os.WriteFile(in("x"), nil, 0o600); err != nil {
				return err
			}
			return os.Rename(in("x"), path)
		}, true, true},
		{"renamed out", func() error { return os.Rename(path, in("y")) }, false, true},
		{"linked", func() error { return os.Link(in("y"), path) }, true, true},
		{"unlinked", func() error { return os.Remove(path) }, false, true},
		{"a directory", func() error { return os.Mkdir(path, 0o755) }, true, true},
		{"directory removed", func() error { return os.Remove(path) }, false, true},
		{"dangling symbolic link", func() error { return os.Symlink(filepath.Join(t.TempDir(), "target"), path) }, false, false},
		{"link's target created elsewhere", func() error {
			target, _ := os.Readlink(path)
			return os.WriteFile(target, nil, 0o600)
		}, true, false},
		{"link's target removed", func() error {
			target, _ := os.Readlink(path)
			return os.Remove(target)
		}, false, false},
		{"link removed", func() error { return os.Remove(path) }, false, true},
		{"created again", func() error { return os.WriteFile(path, nil, 0o600) }, true, true},
		{"directory gone", func() error { return os.RemoveAll(dir) }, false, false},
		{"directory and file back", func() error {
			if err := os.Mkdir(dir, 0o755); err != nil {
				return err
			}
			return os.WriteFile(path, nil, 0o600)
		}, true, false},
	}
	for i, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.what, err)
		}
		if i == 0 && w.fd < 0 {
			w.exists()
			if w.fd < 0 {
				t.Logf("not watching, so which answers came from a watch is not checked: %v", w.notWatch)
			}
		}
		if got := w.exists(); got != s.want {
			t.Errorf("%s: exists() = %v, want %v", s.what, got, s.want)
		}
		if got := exists(w.path); got != s.want {
			t.Errorf("%s: access(2) says %v, the step expects %v", s.what, got, s.want)
		}
		if watching := w.fd >= 0 && w.known; watching != s.watching && w.notWatch == nil {
			t.Errorf("%s: answered from the watch %v, want %v", s.what, watching, s.watching)
		}
	}
}

// TestWatchedFileSymlinkedDir: a directory reached through a symbolic
// link is not watched (the link could be pointed elsewhere unseen), and
// every answer is asked for.
func TestWatchedFileSymlinkedDir(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	w := newWatchedFile(filepath.Join(link, "f"))
	if w.exists() {
		t.Error("exists before the file was made")
	}
	if w.fd >= 0 {
		w.stop()
		t.Fatal("watching a directory through a symbolic link")
	}
	if err := os.WriteFile(filepath.Join(real, "f"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if !w.exists() {
		t.Error("not exists after the file was made")
	}
}

// TestWatchedFileAllocs: a steady answer costs no allocation, from the
// watch or, where none could be made, from asking.
func TestWatchedFileAllocs(t *testing.T) {
	w := newWatchedFile(filepath.Join(t.TempDir(), "f"))
	w.exists()
	t.Cleanup(func() {
		if w.fd >= 0 {
			w.stop()
		}
	})
	switch {
	case w.notWatch != nil:
		t.Logf("not watching, the answers asked for are measured: %v", w.notWatch)
	case w.fd < 0 || !w.known:
		t.Fatal("not watching, and no reason given")
	}
	if n := testing.AllocsPerRun(100, func() { w.exists() }); n != 0 {
		t.Errorf("%v allocations an answer, want 0", n)
	}
}

// TestWatchedFileNoInotify: with no inotify instance left for the user
// (the per-user limit of 128 is shared by every process of a CI host's
// user) the watch tests still pass, their answers access(2)'s. The limit
// is set to 0 in a user namespace of the test's own.
func TestWatchedFileNoInotify(t *testing.T) {
	const limit = "/proc/sys/user/max_inotify_instances"
	script := "echo 0 >" + limit + " && exec \"$0\" -test.run='^(TestWatchedFile|TestWatchedFileAllocs|TestWatchedFileSymlinkedDir)$' -test.v -test.count=1"
	if err := exec.Command("unshare", "-Ur", "sh", "-c", "echo 0 >"+limit).Run(); err != nil {
		t.Skipf("no user namespace whose inotify limit can be set: %v", err)
	}
	out, err := exec.Command("unshare", "-Ur", "sh", "-c", script, os.Args[0]).CombinedOutput()
	if err != nil {
		t.Fatalf("with no inotify instance: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("not watching")) || !bytes.Contains(out, []byte("too many open files")) {
		t.Errorf("the tests ran, but not without inotify:\n%s", out)
	}
}

// TestLocalFS: only file systems whose every change this kernel makes
// are watched; a directory on another (procfs here) is asked for each
// time.
func TestLocalFS(t *testing.T) {
	for _, c := range []struct {
		magic uint32
		want  bool
	}{
		{fsTmpfs, true}, {fsExt, true}, {fsXFS, true}, {fsBtrfs, true}, {fsOverlay, true},
		{0x6969, false},     // NFS
		{0x65735546, false}, // FUSE, virtiofs included
		{0x01021997, false}, // 9p
		{0xff534d42, false}, // CIFS
		{0x9fa0, false},     // procfs
	} {
		if got := localFS(c.magic); got != c.want {
			t.Errorf("localFS(%#x) = %v, want %v", c.magic, got, c.want)
		}
	}
	w := newWatchedFile("/proc/sys/kernel/sample.unavail")
	if w.exists() {
		t.Error("a file procfs has not is said to exist")
	}
	if w.fd >= 0 {
		w.stop()
		t.Error("a directory of procfs watched")
	}
	if w.notWatch == nil {
		t.Error("not watching, and no reason given")
	}
}

// event is one inotify event as the kernel writes it, its name padded
// with NULs to pad bytes.
func event(mask uint32, name string, pad int) []byte {
	b := make([]byte, inotifyEventSize+pad)
	binary.NativeEndian.PutUint32(b[0:], 1)
	binary.NativeEndian.PutUint32(b[4:], mask)
	binary.NativeEndian.PutUint32(b[12:], uint32(pad))
	copy(b[inotifyEventSize:], name)
	return b
}

func TestScanEvents(t *testing.T) {
	cat := func(evs ...[]byte) []byte {
		var b []byte
		for _, e := range evs {
			b = append(b, e...)
		}
		return b
	}
	for _, c := range []struct {
		what        string
		b           []byte
		ours, ended bool
	}{
		{"none", nil, false, false},
		{"another name", event(syscall.IN_CREATE, "other", 16), false, false},
		{"a name it begins", event(syscall.IN_CREATE, "sample.unavailable", 32), false, false},
		{"ours created", event(syscall.IN_CREATE, "sample.unavail", 16), true, false},
		{"ours among others", cat(event(syscall.IN_DELETE, "a", 16), event(syscall.IN_MOVED_TO, "sample.unavail", 32), event(syscall.IN_CREATE, "b", 16)), true, false},
		{"the directory's attributes", event(syscall.IN_ATTRIB, "", 0), true, false},
		{"queue overflow", event(syscall.IN_Q_OVERFLOW, "", 0), true, false},
		{"directory deleted", event(syscall.IN_DELETE_SELF, "", 0), true, true},
		{"directory moved", event(syscall.IN_MOVE_SELF, "", 0), true, true},
		{"watch removed", event(syscall.IN_IGNORED, "", 0), true, true},
		{"unmounted", event(syscall.IN_UNMOUNT, "", 0), true, true},
		{"cut in the header", event(syscall.IN_CREATE, "other", 16)[:10], true, true},
		{"cut in the name", event(syscall.IN_CREATE, "other", 16)[:20], true, true},
	} {
		ours, ended := scanEvents(c.b, "sample.unavail")
		if ours != c.ours || ended != c.ended {
			t.Errorf("%s: scanEvents = %v, %v, want %v, %v", c.what, ours, ended, c.ours, c.ended)
		}
	}
}

func FuzzScanEvents(f *testing.F) {
	f.Add(event(syscall.IN_CREATE, "sample.unavail", 16))
	f.Add(append(event(syscall.IN_DELETE, "x", 16), event(syscall.IN_Q_OVERFLOW, "", 0)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		ours, ended := scanEvents(b, "sample.unavail")
		if ended && !ours {
			t.Error("a watch that ended must be asked again")
		}
	})
}
