package linux

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"syscall"
)

// dirList reads directories' entry names into buffers kept between
// reads, so that listing a directory at every fetch allocates nothing
// (os.ReadDir makes a File, a DirEntry per entry and a string per name).
type dirList struct {
	path  []byte
	buf   []byte   // getdents64 records
	names []byte   // the names, back to back
	ends  []int    // where each name ends in names
	order []uint32 // the entries' indexes, sorted when asked
	limit int      // the most entries a listing may have; 0 is maxDirEntries
}

// errTooManyEntries is a listing's error when its directory holds more
// than the bound: the listing is refused rather than cut short, so that
// no metric is answered from part of a directory.
var errTooManyEntries = errors.New("directory has more entries than the agent lists")

// direntHeader is the size of linux_dirent64's fixed part: inode, offset,
// record length and type.
const direntHeader = 19

// maxDirEntries bounds a listing: sysfs and procfs directories the agent
// lists hold a few entries each, and a directory of millions of them is
// not one this agent should walk at every fetch.
const maxDirEntries = 1 << 16

// read lists the directory named by the concatenation of parts, without
// its . and .. entries, in the directory's own order, or by name when
// sorted is set (as os.ReadDir orders them). The names stay valid until
// the next read.
func (d *dirList) read(sorted bool, parts ...string) error {
	d.path = d.path[:0]
	for _, p := range parts {
		d.path = append(d.path, p...)
	}
	return d.list(sorted)
}

// readPath lists the directory named by path as read does.
func (d *dirList) readPath(sorted bool, path []byte) error {
	d.path = append(d.path[:0], path...)
	return d.list(sorted)
}

// list lists the directory named by d.path.
func (d *dirList) list(sorted bool) error {
	d.names, d.ends, d.order = d.names[:0], d.ends[:0], d.order[:0]
	fd, err := openPath(&d.path, syscall.O_RDONLY|syscall.O_DIRECTORY)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	if cap(d.buf) < 8192 {
		d.buf = make([]byte, 8192)
	}
	d.buf = d.buf[:cap(d.buf)]
	for {
		n, err := syscall.Getdents(fd, d.buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n <= 0 {
			break
		}
		if err := d.parse(d.buf[:n]); err != nil {
			d.names, d.ends = d.names[:0], d.ends[:0]
			return err
		}
	}
	for i := range d.ends {
		d.order = append(d.order, uint32(i))
	}
	if sorted {
		slices.SortFunc(d.order, func(a, b uint32) int { return bytes.Compare(d.name(int(a)), d.name(int(b))) })
	}
	return nil
}

// parse appends the names of getdents64 records in b.
func (d *dirList) parse(b []byte) error {
	for len(b) > 0 {
		if len(b) < direntHeader {
			return syscall.EIO
		}
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen <= direntHeader || reclen > len(b) {
			return syscall.EIO
		}
		name := b[direntHeader:reclen]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		b = b[reclen:]
		if string(name) == "." || string(name) == ".." || len(name) == 0 {
			continue
		}
		limit := d.limit
		if limit <= 0 {
			limit = maxDirEntries
		}
		if len(d.ends) >= limit {
			return errTooManyEntries
		}
		d.names = append(d.names, name...)
		d.ends = append(d.ends, len(d.names))
	}
	return nil
}

// len is the number of entries the last read listed.
func (d *dirList) len() int { return len(d.order) }

// at is the name of the i'th entry in the listing's order.
func (d *dirList) at(i int) []byte { return d.name(int(d.order[i])) }

// name is the name of the entry read i'th.
func (d *dirList) name(i int) []byte {
	start := 0
	if i > 0 {
		start = d.ends[i-1]
	}
	return d.names[start:d.ends[i]]
}
