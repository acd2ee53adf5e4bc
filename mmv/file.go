package mmv

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// generation is libpcp_mmv's generation number, seconds in the high half
// and microseconds in the low, made to increase strictly so that two
// rewrites in one microsecond still differ.
func generation(prev uint64) uint64 {
	now := time.Now()
	g := uint64(now.Unix())<<32 | uint64(now.Nanosecond()/1000)
	if g <= prev {
		g = prev + 1
	}
	return g
}

// rewrite writes the registry's whole file anew and moves every handle
// into it. The file is built under a hidden name (pmdammv skips names
// starting with '.'), its second generation number set only once it is
// complete, and then renamed over the old file, so a reader never takes a
// half-written file: it sees the old file or the new one, and a reader
// holding the old one sees its generation change and reloads.
func (r *Registry) rewrite() error {
	if !r.started {
		return nil
	}
	if r.pinned {
		return errorf(ErrPinned, "registry "+strconv.Quote(r.name), "a single-writer handle holds its values in place")
	}
	r.settle()
	img, lay := r.build(int32(os.Getpid()))
	gen := generation(r.gen)
	binary.LittleEndian.PutUint64(img[hdrG1:], gen)

	tmp, err := os.CreateTemp(r.dir, "."+r.name+".")
	if err != nil {
		return fmt.Errorf("mmv: %w", err)
	}
	tmpName := tmp.Name()
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmpName)
		return fmt.Errorf("mmv: %s: %w", r.Path(), err)
	}
	// The file is 0644 whatever the umask, as libpcp_mmv makes it, so
	// that pmdammv (running as another user) can read it.
	if err := tmp.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := tmp.Truncate(int64(len(img))); err != nil {
		return fail(err)
	}
	b, err := syscall.Mmap(int(tmp.Fd()), 0, len(img), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return fail(err)
	}
	tmp.Close()
	copy(b, img)

	type prev struct {
		v  *diskValue
		s  *[StringSize]byte
		st *straggler
	}
	var undo []prev
	var moved []*straggler
	for k, m := range r.metrics {
		additive := m.sem == SemCounter || m.typ == Elapsed
		for j, c := range m.cells {
			d := (*diskValue)(unsafe.Pointer(&b[lay.valueOff[k][j]]))
			var s *[StringSize]byte
			if m.typ == String {
				s = (*[StringSize]byte)(unsafe.Pointer(&b[lay.strOff[k][j]]))
			}
			p := prev{v: c.v.Load(), s: c.s.Load()}
			if p.st = c.moveTo(d, s, additive); p.st != nil {
				moved = append(moved, p.st)
			}
			undo = append(undo, p)
		}
	}
	for _, st := range moved {
		st.settle()
	}
	atomic.StoreUint64((*uint64)(unsafe.Pointer(&b[hdrG2])), gen)

	if err := os.Rename(tmpName, r.Path()); err != nil {
		n := 0
		for _, m := range r.metrics {
			for _, c := range m.cells {
				c.moveBack(undo[n].v, undo[n].s, undo[n].st)
				n++
			}
		}
		// Kept mapped: a writer may still hold a pointer into it.
		r.old = append(r.old, b)
		os.Remove(tmpName)
		return fmt.Errorf("mmv: %w", err)
	}
	if r.cur != nil {
		// A reader still mapping the replaced file sees it in flux and
		// looks again.
		atomic.StoreUint64((*uint64)(unsafe.Pointer(&r.cur[hdrG2])), 0)
		r.old = append(r.old, r.cur)
	}
	r.cur, r.gen = b, gen
	r.stragglers = append(r.stragglers, moved...)
	r.settle()
	return nil
}

// settle carries late updates from the previous homes of additive values
// into the current ones. It runs after each move, again before every
// later rewrite and at Close, so an update that a writer started before a
// move and finished after it is counted, and counted once. Previous homes
// stay mapped until Close for this (rewrites are meant to be rare: a
// metric or instance added now and then, not per update).
func (r *Registry) settle() {
	for _, s := range r.stragglers {
		s.settle()
	}
}

// retire replaces the file mapping b, in place, by anonymous private
// memory of the same size: the file is let go (its pages no longer shared
// with readers), while an update that took an address in b before Close
// and writes after it lands in memory of its own instead of faulting.
// The range stays reserved for the life of the program; its pages cost
// memory only where such late writes touch them.
func retire(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	_, _, errno := syscall.Syscall6(syscall.SYS_MMAP, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)),
		syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_FIXED, ^uintptr(0), 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// maxScan bounds the files clustersInDir reads.
const maxScan = 4096

// clustersInDir returns the clusters other MMV files in dir claim in their
// headers, to keep a derived cluster off them and refuse a given one that
// collides: pmdammv serves only the first of two files with one cluster.
// Files pmdammv would skip (hidden, not regular, not MMV) are skipped.
func clustersInDir(dir, self string) (map[uint32]bool, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("mmv: %w", err)
	}
	taken := map[uint32]bool{}
	for i, e := range ents {
		if i >= maxScan {
			break
		}
		if e.Name() == self || e.Name()[0] == '.' || !e.Type().IsRegular() {
			continue
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		var h [HeaderSize]byte
		_, err = io.ReadFull(f, h[:])
		f.Close()
		if err != nil || !bytes.Equal(h[:4], []byte(Magic)) {
			continue
		}
		if v := binary.LittleEndian.Uint32(h[hdrVersion:]); v < Version1 || v > Version3 {
			continue
		}
		if c := binary.LittleEndian.Uint32(h[hdrCluster:]); c != 0 {
			taken[c] = true
		}
	}
	return taken, nil
}
