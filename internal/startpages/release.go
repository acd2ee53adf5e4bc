package startpages

import (
	"bytes"
	"encoding/binary"
	"os"
	"syscall"
)

const pageSize = 4096

// Release grows the calling goroutine's stack (GrowStack), then drops
// the process's mappings of the pages of its executable's read-only data
// segment (.rodata, .gopclntab) that are the file's own: a page a
// debugger or uprobe has written (a private copy) is kept. The text is
// kept too: a replay runs most of what start ran, and mapping it again
// cost pmval about 60 more faults for 170 KB, where the data segment
// gives back 700 KB for about 50 (docs/bench.md). It reports how many bytes
// of mappings it dropped. It does nothing where /proc/self is not
// readable; the pages dropped are read again from the page cache when
// touched, so nothing but a later fault changes.
func Release() (int64, error) {
	GrowStack(false)
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return 0, err
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return 0, err
	}
	pm, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return 0, err
	}
	defer pm.Close()
	var dropped int64
	var buf [512 * 8]byte // pagemap entries, read a chunk at a time
	for _, m := range readOnlyMappings(maps, exe) {
		var rs runs
		for at := m.lo; at < m.hi; {
			n := min((m.hi-at)/pageSize, uint64(len(buf)/8))
			if _, err := pm.ReadAt(buf[:n*8], int64(at/pageSize*8)); err != nil {
				return dropped, err
			}
			for i := range n {
				rs.page(at, binary.LittleEndian.Uint64(buf[i*8:]))
				at += pageSize
			}
		}
		rs.end(m.hi)
		for _, r := range rs.out {
			if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, uintptr(r.lo), uintptr(r.hi-r.lo), syscall.MADV_DONTNEED); e != 0 {
				return dropped, e
			}
			dropped += int64(r.hi - r.lo)
		}
	}
	return dropped, nil
}

// span is a range of addresses [lo, hi).
type span struct{ lo, hi uint64 }

// maxMapping bounds the mappings Release reads the pagemap of: a binary's
// segments are megabytes; anything larger is not one.
const maxMapping = 1 << 30

// readOnlyMappings are the mappings in maps (/proc/PID/maps text) of the
// file at path that are neither writable nor executable.
func readOnlyMappings(maps []byte, path string) []span {
	var out []span
	for len(maps) > 0 {
		line, rest, _ := bytes.Cut(maps, []byte("\n"))
		maps = rest
		f := bytes.Fields(line)
		// address perms offset dev inode path (a path with spaces, or
		// " (deleted)" after it, is not the executable's)
		if len(f) != 6 || string(f[5]) != path || len(f[1]) < 3 || f[1][0] != 'r' || f[1][1] != '-' || f[1][2] != '-' {
			continue
		}
		lo, hi, ok := bytes.Cut(f[0], []byte("-"))
		if !ok {
			continue
		}
		a, ok1 := hex(lo)
		b, ok2 := hex(hi)
		if !ok1 || !ok2 || b <= a || a%pageSize != 0 || b%pageSize != 0 || b-a > maxMapping {
			continue
		}
		out = append(out, span{a, b})
	}
	return out
}

// hex reads an address as /proc/PID/maps writes it.
func hex(s []byte) (uint64, bool) {
	if len(s) == 0 || len(s) > 16 {
		return 0, false
	}
	var v uint64
	for _, c := range s {
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | uint64(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | uint64(c-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// Bits of a pagemap entry (Documentation/admin-guide/mm/pagemap.rst).
const (
	pmPresent = 1 << 63
	pmSwap    = 1 << 62 // in swap: not present, and never the file's
	pmFile    = 1 << 61 // a file page or shared anonymous
)

// runs gathers, page by page from their pagemap entries, the runs of a
// mapping's pages that are the file's own or not mapped at all: the runs
// between the private copies (present or swapped pages without pmFile).
type runs struct {
	start uint64 // the open run's first page, if open
	open  bool
	out   []span
}

func (r *runs) page(addr, flags uint64) {
	// A private copy may be in swap (present clear, swapped set): it is
	// still the only copy of what was written (a PIE build's relocated
	// RELRO, a debugger's poke), and dropping it would bring back the
	// file's bytes.
	private := flags&(pmPresent|pmSwap) != 0 && flags&pmFile == 0
	switch {
	case !private && !r.open:
		r.start, r.open = addr, true
	case private && r.open:
		r.out = append(r.out, span{r.start, addr})
		r.open = false
	}
}

// end closes the open run at the mapping's end.
func (r *runs) end(addr uint64) {
	if r.open {
		r.out = append(r.out, span{r.start, addr})
		r.open = false
	}
}
