package pmproxy

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// ReleaseFilePages unmaps the resident pages of the program's own
// read-only mappings (its binary's code, read-only data and function
// tables) and of the shared libraries' code, so that only what runs
// afterwards is mapped again, fault by fault, from the page cache, where
// the pages stay. A Go program touches code and tables all over its
// binary while its packages initialise and during a burst of work, and
// the kernel maps the 64 KiB around each touched page (fault-around), so
// without this nearly all of a 16 MB binary stays resident for the
// program's life whatever it does afterwards. Only mappings that are
// never written are released: writable ones and any holding a page the
// process wrote (a private copy) are left alone, since unmapping would
// lose the copy, and of other files only executable mappings are taken,
// since a library loaded at run time relocates its read-only data in
// place (RELRO) and could do so at an address just read. It returns the
// KiB that were resident in the mappings it released.
func ReleaseFilePages() (int, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	exe, err := os.Stat("/proc/self/exe")
	if err != nil {
		return 0, err
	}
	st, ok := exe.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, errors.New("no device and inode for /proc/self/exe")
	}
	ms, err := readOnlyFileMappings(f, devString(uint64(st.Dev)), strconv.FormatUint(st.Ino, 10))
	if err != nil {
		return 0, err
	}
	released := 0
	for _, m := range ms {
		if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, m.start, m.end-m.start, syscall.MADV_DONTNEED); e != 0 {
			// A locked mapping refuses (EINVAL); the others still go.
			continue
		}
		released += m.rss
	}
	return released, nil
}

// fileMapping is one mapping of /proc/self/smaps and its resident KiB.
type fileMapping struct {
	start, end uintptr
	rss        int
}

// devString is a device number as /proc/PID/maps shows it, major:minor
// in hexadecimal.
func devString(dev uint64) string {
	major := (dev>>8)&0xfff | (dev>>32)&^0xfff
	minor := dev&0xff | (dev>>12)&^0xff
	return fmt.Sprintf("%02x:%02x", major, minor)
}

// readOnlyFileMappings returns the mappings that have some page
// resident, are not writable, hold no anonymous (written) page, and are
// either of the file dev and inode name (the program's binary) or
// executable mappings of another file (not [vdso] and the like).
func readOnlyFileMappings(r io.Reader, dev, inode string) ([]fileMapping, error) {
	type entry struct {
		fileMapping
		eligible  bool
		anon, rss int
	}
	var es []entry
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fl := strings.Fields(sc.Text())
		if len(fl) == 0 {
			continue
		}
		if !strings.HasSuffix(fl[0], ":") {
			// A mapping's first line: start-end perms offset dev inode [path].
			var e entry
			lo, hi, _ := strings.Cut(fl[0], "-")
			s, err1 := strconv.ParseUint(lo, 16, 64)
			x, err2 := strconv.ParseUint(hi, 16, 64)
			e.start, e.end = uintptr(s), uintptr(x)
			perms := fl[1]
			e.eligible = err1 == nil && err2 == nil && x > s && len(fl) >= 6 &&
				strings.HasPrefix(fl[5], "/") && len(perms) == 4 && perms[1] != 'w' &&
				(fl[3] == dev && fl[4] == inode || perms[2] == 'x')
			es = append(es, e)
			continue
		}
		if len(es) == 0 || len(fl) < 2 {
			continue
		}
		n, err := strconv.Atoi(fl[1])
		if err != nil {
			continue
		}
		switch e := &es[len(es)-1]; fl[0] {
		case "Rss:":
			e.rss = n
		case "Anonymous:":
			e.anon = n
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var ms []fileMapping
	for _, e := range es {
		if e.eligible && e.anon == 0 && e.rss > 0 {
			ms = append(ms, fileMapping{e.start, e.end, e.rss})
		}
	}
	return ms, nil
}
