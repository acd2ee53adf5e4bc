package pmproxy

import (
	"bufio"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// ReleaseFilePages unmaps the resident pages of the process's read-only
// file mappings (its binary's code, read-only data and function tables,
// and the shared libraries' code) so that only what runs afterwards is
// mapped again, fault by fault, from the page cache, where the pages stay.
// A Go program touches code and tables all over its binary while its
// packages initialise and during a burst of work, and the kernel maps the
// 64 KiB around each touched page (fault-around), so without this nearly
// all of a 16 MB binary stays resident for the program's life whatever it
// does afterwards. Writable mappings, and every mapping holding a page the
// process has written (a private copy, such as relocated data the loader
// made read-only), are left alone: unmapping would lose the copy. It
// returns the KiB that were resident in the mappings it released.
func ReleaseFilePages() (int, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	ms, err := readOnlyFileMappings(f)
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

// readOnlyFileMappings returns the mappings of files (paths, not
// [heap], [vdso] and the like) that are not writable, hold no anonymous
// (written) page and have some page resident.
func readOnlyFileMappings(r io.Reader) ([]fileMapping, error) {
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
			e.eligible = err1 == nil && err2 == nil && x > s && len(fl) >= 6 &&
				strings.HasPrefix(fl[5], "/") && len(fl[1]) == 4 && fl[1][1] != 'w'
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
