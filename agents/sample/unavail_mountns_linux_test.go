package sample

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// inMountNS is set in the environment of this test binary when it is run
// again in a mount namespace of its own.
const inMountNS = "GOPCP_SAMPLE_TEST_IN_MOUNT_NS"

// inOwnMountNS runs the test named run again in a new mount namespace
// (unshare(1), as root or in a user namespace of its own), failing t if
// it fails there; it skips t, with the reason, where no namespace can be
// made.
func inOwnMountNS(t *testing.T, run string) {
	t.Helper()
	var prefix []string
	for _, p := range [][]string{{"unshare", "-m", "--propagation", "private"}, {"unshare", "-Urm", "--propagation", "private"}} {
		if err := exec.Command(p[0], append(p[1:], "true")...).Run(); err == nil {
			prefix = p
			break
		}
	}
	if prefix == nil {
		t.Skip("no mount namespace can be made here (unshare -m and -Urm fail)")
	}
	cmd := exec.Command(prefix[0], append(prefix[1:], os.Args[0], "-test.run=^"+run+"$", "-test.v", "-test.count=1")...)
	cmd.Env = append(os.Environ(), inMountNS+"=1")
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil:
		t.Errorf("in a new mount namespace: %v\n%s", err, out)
	case bytes.Contains(out, []byte("--- SKIP")):
		t.Skipf("skipped in a new mount namespace:\n%s", out)
	}
}

// TestWatchedFileMountedOver: a file system mounted over the watched
// directory, or over its parent, after the watch began is seen at the
// next answer, and so is its unmounting: every answer is access(2)'s.
func TestWatchedFileMountedOver(t *testing.T) {
	if os.Getenv(inMountNS) == "" {
		inOwnMountNS(t, "TestWatchedFileMountedOver")
		return
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "d")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "sample.unavail")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	w := newWatchedFile(path)
	t.Cleanup(func() {
		if w.fd >= 0 {
			w.stop()
		}
	})
	if !w.exists() {
		t.Fatal("the file is not seen before any mount")
	}
	if w.fd < 0 {
		t.Skipf("not watching %s, nothing to go stale: %v", dir, w.notWatch)
	}
	mount := func(at string) func() error {
		return func() error { return syscall.Mount("tmpfs", at, "tmpfs", 0, "size=64k") }
	}
	unmount := func(at string) func() error {
		return func() error { return syscall.Unmount(at, 0) }
	}
	for _, s := range []struct {
		what string
		do   func() error
		want bool
	}{
		{"tmpfs mounted over the directory", mount(dir), false},
		{"created in the tmpfs", func() error { return os.WriteFile(path, nil, 0o600) }, true},
		{"removed from the tmpfs", func() error { return os.Remove(path) }, false},
		{"the tmpfs unmounted", unmount(dir), true},
		{"tmpfs mounted over the parent", mount(parent), false},
		{"the parent's tmpfs unmounted", unmount(parent), true},
		{"removed again", func() error { return os.Remove(path) }, false},
	} {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.what, err)
		}
		if got := exists(w.path); got != s.want {
			t.Errorf("%s: access(2) says %v, the step expects %v", s.what, got, s.want)
		}
		if got := w.exists(); got != s.want {
			t.Errorf("%s: exists() = %v, want %v", s.what, got, s.want)
		}
		if s.what == "tmpfs mounted over the directory" && w.fd < 0 {
			t.Errorf("%s: not watching the tmpfs: %v", s.what, w.notWatch)
		}
	}
}

// TestMountsChanged: a poll of the mount table reports a mount once,
// and nothing when nothing changed.
func TestMountsChanged(t *testing.T) {
	if os.Getenv(inMountNS) == "" {
		inOwnMountNS(t, "TestMountsChanged")
		return
	}
	fd, err := syscall.Open(mountsFile, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no mount table: %v", err)
	}
	defer syscall.Close(fd)
	var p [2]pollFD
	var zero syscall.Timespec
	mountsChanged := func(fd int, p *[2]pollFD, zero *syscall.Timespec) bool {
		changed, events := pollWatch(-1, fd, p, zero)
		if events {
			t.Error("events of no inotify descriptor")
		}
		return changed
	}
	if mountsChanged(fd, &p, &zero) {
		t.Error("a change reported before any")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Fatal(err)
	}
	if !mountsChanged(fd, &p, &zero) {
		t.Error("a mount not reported")
	}
	if mountsChanged(fd, &p, &zero) {
		t.Error("a mount reported twice")
	}
	if err := syscall.Unmount(dir, 0); err != nil {
		t.Fatal(err)
	}
	if !mountsChanged(fd, &p, &zero) {
		t.Error("an unmount not reported")
	}
}
