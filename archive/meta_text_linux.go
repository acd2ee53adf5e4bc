package archive

import (
	"os"
	"syscall"
)

// fileID is what tells one file from another: its device and inode.
// It is kept rather than the os.FileInfo, whose access time a later
// read may change.
type fileID struct{ dev, ino uint64 }

// idOf is st's file's identity; ok is false where there is none to have.
func idOf(st os.FileInfo) (id fileID, ok bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{dev: uint64(s.Dev), ino: s.Ino}, true
}
