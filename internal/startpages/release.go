package startpages

import (
	"bytes"
	"encoding/binary"
	"os"
	"syscall"
)

const pageSize = 4096

// Release grows the calling goroutine's stack (GrowStack), then drops
// the process's mappings of the read-only pages of its executable that
// are the file's own: a page a debugger or uprobe has written (a private
// copy) is kept, as are the writable segments. It reports how many bytes
// of mappings it dropped. It does nothing where /proc/self is not
// readable; the pages dropped are read again from the page cache when
// touched, so nothing but a later fault changes.
func Release() (int64, error) {
	GrowStack()
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
	for _, m := range readOnlyMappings(maps, exe) {
		flags, err := pageFlags(pm, m)
		if err != nil {
			return dropped, err
		}
		for _, r := range fileRuns(m, flags) {
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
// file at path that are not writable.
func readOnlyMappings(maps []byte, path string) []span {
	var out []span
	for len(maps) > 0 {
		line, rest, _ := bytes.Cut(maps, []byte("\n"))
		maps = rest
		f := bytes.Fields(line)
		// address perms offset dev inode path (a path with spaces, or
		// " (deleted)" after it, is not the executable's)
		if len(f) != 6 || string(f[5]) != path || len(f[1]) < 2 || f[1][0] != 'r' || f[1][1] != '-' {
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

// pageFlags reads the pagemap entries of m's pages.
func pageFlags(pm *os.File, m span) ([]uint64, error) {
	n := (m.hi - m.lo) / pageSize
	buf := make([]byte, n*8)
	if _, err := pm.ReadAt(buf, int64(m.lo/pageSize*8)); err != nil {
		return nil, err
	}
	flags := make([]uint64, n)
	for i := range flags {
		flags[i] = binary.LittleEndian.Uint64(buf[i*8:])
	}
	return flags, nil
}

// Bits of a pagemap entry (Documentation/admin-guide/mm/pagemap.rst).
const (
	pmPresent = 1 << 63
	pmFile    = 1 << 61 // a file page or shared anonymous
)

// fileRuns are the runs of m's pages that are the file's own or not
// mapped at all, from their pagemap entries: the runs between the
// private copies (present pages without pmFile).
func fileRuns(m span, flags []uint64) []span {
	var out []span
	start := -1
	for i := 0; i <= len(flags); i++ {
		private := i == len(flags) || flags[i]&pmPresent != 0 && flags[i]&pmFile == 0
		switch {
		case !private && start < 0:
			start = i
		case private && start >= 0:
			out = append(out, span{m.lo + uint64(start)*pageSize, m.lo + uint64(i)*pageSize})
			start = -1
		}
	}
	return out
}
