package dirent

import (
	"bytes"
	"errors"
	"slices"
	"syscall"
)

// List reads directories' entry names into buffers kept between reads,
// so that listing a directory again allocates nothing (os.ReadDir makes a
// File, a DirEntry per entry and a string per name). Its zero value is
// ready to use.
type List struct {
	// Limit is the most entries a listing may have; 0 is MaxEntries.
	Limit int
	path  []byte
	buf   []byte   // getdents64 records
	names []byte   // the names, back to back
	ends  []int    // where each name ends in names
	order []uint32 // the entries' indexes, sorted when asked
}

// MaxEntries is a listing's default bound: the sysfs and procfs
// directories listed at each fetch hold a few entries each, and one of
// millions is not one to walk at every fetch.
const MaxEntries = 1 << 16

// ErrTooManyEntries is a listing's error when its directory holds more
// entries than the bound: the listing is refused rather than cut short,
// so that nothing is answered from part of a directory.
var ErrTooManyEntries = errors.New("directory has more entries than are listed")

// Read lists the directory named by the concatenation of parts, without
// its . and .. entries, in the directory's own order, or by name when
// sorted is set (as os.ReadDir orders them). The names stay valid until
// the next read; after an error the listing is empty.
func (d *List) Read(sorted bool, parts ...string) error {
	d.path = d.path[:0]
	for _, p := range parts {
		d.path = append(d.path, p...)
	}
	return d.list(sorted)
}

// ReadPath lists the directory named by path as Read does.
func (d *List) ReadPath(sorted bool, path []byte) error {
	d.path = append(d.path[:0], path...)
	return d.list(sorted)
}

// list lists the directory named by d.path.
func (d *List) list(sorted bool) error {
	d.names, d.ends, d.order = d.names[:0], d.ends[:0], d.order[:0]
	fd, err := OpenTerminated(&d.path, syscall.O_RDONLY|syscall.O_DIRECTORY)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	if cap(d.buf) < 8192 {
		d.buf = make([]byte, 8192)
	}
	if err := Each(fd, d.buf[:cap(d.buf)], d.add); err != nil {
		d.names, d.ends = d.names[:0], d.ends[:0]
		return err
	}
	for i := range d.ends {
		d.order = append(d.order, uint32(i))
	}
	if sorted {
		slices.SortFunc(d.order, func(a, b uint32) int { return bytes.Compare(d.name(int(a)), d.name(int(b))) })
	}
	return nil
}

// parse appends the names of the getdents64 records in b, all of which
// must be whole (EIO otherwise: the kernel never writes a part).
func (d *List) parse(b []byte) error {
	return records(b, d.add)
}

// add appends an entry's name, leaving out . and .., within the bound.
func (d *List) add(name []byte, _ byte) error {
	limit := d.Limit
	if limit <= 0 {
		limit = MaxEntries
	}
	if len(name) == 0 || string(name) == "." || string(name) == ".." {
		return nil
	}
	if len(d.ends) >= limit {
		return ErrTooManyEntries
	}
	d.names = append(d.names, name...)
	d.ends = append(d.ends, len(d.names))
	return nil
}

// Len is the number of entries the last read listed.
func (d *List) Len() int { return len(d.order) }

// At is the i'th entry's name in the listing's order.
func (d *List) At(i int) []byte { return d.name(int(d.order[i])) }

// name is the name of the entry read i'th.
func (d *List) name(i int) []byte {
	start := 0
	if i > 0 {
		start = d.ends[i-1]
	}
	return d.names[start:d.ends[i]]
}
