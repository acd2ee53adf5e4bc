package pmlogger

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPortMapRemoveOnlyOwn: at exit a logger removes its port map file
// and primary link only while they are still its own; a map file or link
// another logger has put in their place stays.
func TestPortMapRemoveOnlyOwn(t *testing.T) {
	for _, replaced := range []bool{false, true} {
		dir := t.TempDir()
		pm, err := WritePortMap(dir, os.Getpid(), 4330, "host", "/a/b", "", true)
		if err != nil {
			t.Fatal(err)
		}
		other := filepath.Join(dir, "999999")
		if replaced {
			// Another logger's files, made while ours exist.
			if err := os.WriteFile(pm.Path+".new", []byte("4331\nother\n/c/d\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(pm.Path+".new", pm.Path); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(other, pm.Link+".new"); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(pm.Link+".new", pm.Link); err != nil {
				t.Fatal(err)
			}
		}
		pm.Remove()
		_, mapErr := os.Lstat(pm.Path)
		target, linkErr := os.Readlink(filepath.Join(dir, "primary"))
		if replaced {
			if mapErr != nil || linkErr != nil || target != other {
				t.Errorf("another logger's files removed: map %v, link %q %v", mapErr, target, linkErr)
			}
			continue
		}
		if !os.IsNotExist(mapErr) || !os.IsNotExist(linkErr) {
			t.Errorf("own files left: map %v, link %v", mapErr, linkErr)
		}
	}
}
