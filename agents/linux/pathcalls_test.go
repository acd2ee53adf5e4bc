package linux

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestPathCalls: exists answers as os.Stat does, and statfs fills what
// syscall.Statfs fills, for the same paths.
func TestPathCalls(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o600)
	os.Symlink("missing", filepath.Join(dir, "dangling"))
	var c pathCalls
	for _, p := range []string{dir, file, filepath.Join(dir, "dangling"), filepath.Join(dir, "nope"), "/", "/proc/self/stat", filepath.Join(file, "x")} {
		_, err := os.Stat(p)
		if got := c.exists(p); got != (err == nil) {
			t.Errorf("exists(%s) = %v, os.Stat: %v", p, got, err)
		}
		if got := c.existsPath([]byte(p)); got != (err == nil) {
			t.Errorf("existsPath(%s) = %v, os.Stat: %v", p, got, err)
		}
		var want, got syscall.Statfs_t
		werr := syscall.Statfs(p, &want)
		gerr := c.statfs(p, &got)
		if werr != gerr || got.Type != want.Type || got.Bsize != want.Bsize || got.Blocks != want.Blocks || got.Files != want.Files {
			t.Errorf("statfs(%s) = %+v, %v; syscall.Statfs: %+v, %v", p, got, gerr, want, werr)
		}
	}
	if raceEnabled {
		return
	}
	var st syscall.Statfs_t
	if n := testing.AllocsPerRun(10, func() { c.statfs(dir, &st); c.exists(dir, "/f") }); n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}

// TestBandwidthModTime: the bandwidth file's modification time is
// os.Stat's, through a symbolic link too, and a missing file has none.
func TestBandwidthModTime(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bandwidth.conf")
	os.WriteFile(file, []byte("Version:1.0\n"), 0o600)
	os.Symlink(file, filepath.Join(dir, "link"))
	for _, p := range []string{file, filepath.Join(dir, "link"), filepath.Join(dir, "nope")} {
		c := bandwidthConf{path: p}
		got, ok := c.modTime()
		fi, err := os.Stat(p)
		if ok != (err == nil) || (ok && got != fi.ModTime().UnixNano()) {
			t.Errorf("modTime(%s) = %d, %v; os.Stat: %v, %v", p, got, ok, fi, err)
		}
	}
}
