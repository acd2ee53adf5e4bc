// Package dirent reads the records getdents64(2) fills a buffer with
// (struct linux_dirent64), for the callers that need what Go's directory
// reading leaves out: "." and ".." where the kernel lists them, each
// entry's type, and names read in place without a string per entry.
package dirent

import (
	"bytes"
	"encoding/binary"
)

// headerLen is the fixed part of a record: inode and offset (8 bytes
// each), the record's length (2) and the entry's type (1); the name
// follows, NUL-terminated and padded.
const headerLen = 19

// Next returns the first record of b: the entry's name (pointing into b,
// without its NUL), its type (DT_* as the kernel gives it) and the bytes
// after the record. ok is false when b holds no whole record: it is
// empty, too short, or its first record's length is below the fixed part
// or runs past b, which the kernel never writes; the caller stops there.
func Next(b []byte) (name []byte, typ byte, rest []byte, ok bool) {
	if len(b) < headerLen {
		return nil, 0, nil, false
	}
	reclen := int(binary.NativeEndian.Uint16(b[16:18]))
	if reclen < headerLen || reclen > len(b) {
		return nil, 0, nil, false
	}
	name = b[headerLen:reclen]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	return name, b[18], b[reclen:], true
}
