package archive

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// mappedRSS is the resident size in bytes of the mapping that starts at
// b, from /proc/self/smaps.
func mappedRSS(t *testing.T, b []byte) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	start := fmt.Sprintf("%x-", uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if fields := strings.Fields(line); len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			in = strings.HasPrefix(line, start)
			continue
		}
		if in && strings.HasPrefix(line, "Rss:") {
			kb, err := strconv.Atoi(strings.Fields(line)[1])
			if err != nil {
				t.Fatal(line)
			}
			return kb << 10
		}
	}
	t.Fatalf("no mapping at %s in /proc/self/smaps", start)
	return 0
}

// smallPageCopy copies archive base's volume 0, metadata and index into
// a directory of the test's, written 4 KB at a time, and gives the
// copy's base name. A fault on a mapped file maps the whole page-cache
// folio it lands in: a file read back from disk may sit in folios of
// hundreds of KB (so 2.5 MB of 20180102.0 was resident where the bound
// below allows 768 KB), one just written a page at a time in single
// pages, as a volume pmlogger appends to does. The copy makes the
// mapping's residency depend on the reader alone, not on what the
// machine did with the installed file.
func smallPageCopy(t *testing.T, base string) string {
	t.Helper()
	dir := t.TempDir()
	for _, suffix := range []string{".0", ".meta", ".index"} {
		b, err := os.ReadFile(base + suffix)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(dir + "/copy" + suffix)
		if err != nil {
			t.Fatal(err)
		}
		for off := 0; off < len(b); off += 4096 {
			if _, err := f.Write(b[off:min(off+4096, len(b))]); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return dir + "/copy"
}

// TestMappedRewindLetsGo: a reader placed back at the volume's start
// after reading most of it through the mapping (as pminfo -f places
// every fetch at the archive's start, and some fetches read far into the
// volume for a metric logged late) lets go of the pages behind it as it
// reads forwards again, and of those where it stopped, so the mapping's
// resident pages stay within the mapped window whatever the number and
// depth of the passes, not the volume read so far.
func TestMappedRewindLetsGo(t *testing.T) {
	const name = "20180102"
	if _, err := os.Stat(qaDir + "/" + name + ".0"); err != nil {
		t.Skip("PCP's QA archives are not installed")
	}
	defer func(n int) { mapMin = n }(mapMin)
	mapMin = 0
	a, err := Open(smallPageCopy(t, qaDir+"/"+name), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rd := a.NewReader()
	defer rd.Close()
	var r pcp.Result
	var start pcp.Timestamp
	// the first pass reads nine tenths of the volume
	for i := 0; ; i++ {
		if err := rd.Fetch(&r); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			start = r.Timestamp
		}
		if _, off := rd.Position(); off > int64(rd.cur.size)*9/10 {
			break
		}
	}
	if rd.cur.m == nil {
		t.Fatal("the volume was not mapped")
	}
	// the window, and the kernel's fault-around may not pass its ends
	bound := mapWindow
	if got := mappedRSS(t, rd.cur.m); got > bound {
		t.Fatalf("after one pass %d bytes of the mapping are resident, want at most %d", got, bound)
	}
	// each pass stops short of the one before, as fetches of different
	// metrics do: the pages where a pass stopped are let go when the
	// next one is placed back, not kept until a read passes them again
	for pass, tenths := range []int64{8, 8, 6, 4, 2} {
		rd.SetMode(Forward, start)
		for {
			if err := rd.Fetch(&r); err != nil {
				t.Fatal(err)
			}
			if _, off := rd.Position(); off > int64(rd.cur.size)*tenths/10 {
				break
			}
		}
		if rd.cur.m == nil {
			t.Fatal("the volume is no longer mapped")
		}
		if got := mappedRSS(t, rd.cur.m); got > bound {
			t.Fatalf("after pass %d (to %d/10) %d bytes of the mapping are resident, want at most %d", pass+2, tenths, got, bound)
		}
	}
}

// TestMappedWindowBounded reads a mapped file forwards in records of
// several sizes, from its start and from the middle, and checks that
// the window moves no more often than its size asks and that no more of
// the file than the window (or a record larger than it) is resident.
func TestMappedWindowBounded(t *testing.T) {
	const size = 8 << 20
	name := t.TempDir() + "/vol"
	if err := os.WriteFile(name, make([]byte, size), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, rec := range []int{28, 1000, 8 << 10, 41528, 130 << 10, 600 << 10} {
		for _, from := range []int{0, size/2 + 12} {
			v := &volume{f: f, size: size}
			if !v.moveMap(0, mapWindow) {
				t.Skip("the file cannot be mapped")
			}
			moves, at := 0, v.mOff
			for off := from; off+rec <= size; off += rec {
				if v.mapped(off, rec) == nil {
					t.Fatalf("records of %d: nothing at %d", rec, off)
				}
				if v.mOff != at {
					moves++
					at = v.mOff
				}
			}
			window := max(mapWindow, rec+pdu.LogRecordPrefix+pageSize())
			if most := (size-from)/max(window-rec-pdu.LogRecordPrefix-pageSize(), rec) + 2; moves > most {
				t.Errorf("records of %d from %d: %d moves of the window, want at most %d", rec, from, moves, most)
			}
			if got := mappedRSS(t, v.m); got > window {
				t.Errorf("records of %d from %d: %d bytes of the mapping resident, want at most %d", rec, from, got, window)
			}
			v.unmap()
		}
	}
}
