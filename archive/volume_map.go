package archive

import (
	"math"
	"runtime/debug"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// A large plain volume read forwards can be read through a mapping of
// the file instead of pread into the window (mapMin says which, none by
// default): on a quiet machine the kernel's copy of every
// page into the window and its page cache lookups were half the CPU of
// pmval over a 100 MB archive (perf: _copy_to_iter 31-37%,
// filemap_get_read_batch 10-15%).
//
// The mapping is touched only inside Reader.read, with faults turned
// into panics there (debug.SetPanicOnFault) and recovered as a damaged
// record: a file truncated under the reader makes its pages past the
// new end fault (SIGBUS), which must end that read, not the program.
// Nothing read there keeps a slice of it (the decoders copy values and
// blocks into the result's own storage, and the layout a Shape keeps is
// a copy), so the mapping can move and go.
//
// It maps a window of mapWindow bytes of the file, not the whole file,
// and moves it (one mmap over the same addresses) when a read runs past
// its end or starts before it. The window bounds the pages of the
// volume the process holds, whatever the page cache does: a fault maps
// the page cache folio it lands in as far as the mapping goes, and a
// volume read back from disk sits in folios of up to megabytes, so a
// mapping of the whole file held 2-4 MB of the 100 MB volume at pmval's
// peak where pages let go behind the read were meant to keep 0.3.
// Moving it also lets go of the pages behind, so there is nothing else
// to release.
//
// mapMin is the smallest volume mapped, and no volume is by default:
// pread into the window is as cheap or cheaper where it counts and
// holds less. On this 2-core virtual machine at load 80-100 (other
// sessions' tests), pmval -a over the 100 MB volume took 78-97 ms of
// CPU through pread, 185-273 mapped (PCP's 142-151): every page fault
// costs a trip through the hypervisor there, and a mapped read takes
// 2,458 faults where pread takes 771. At load 2-20 the mapping was
// faster (docs/bench.md, "the cost of reading 100 MB": 16-19 ms
// against 20-27 to bring the volume in). And a mapped read's peak RSS
// is 0.3-0.6 MiB higher: the window's pages, and the function table
// pages the runtime's preemption signals read (a goroutine that makes
// no system call for 10 ms is preempted by a signal whose handler
// looks up the interrupted function: 192 KB more of .gopclntab
// resident, none with GODEBUG=asyncpreemptoff=1). The tests set it to
// 0 to read through the mapping.
var mapMin = math.MaxInt

// mapWindow is the size of the mapped window. Each move costs an mmap
// (the kernel unmapping the old pages and flushing them from the TLB)
// and a fault or two on the record it moved for: 256 KB makes 428 moves
// over the 100 MB volume's 41 KB records, where letting go of pages
// behind a mapping of the whole file made 633 madvise calls.
var mapWindow = 256 << 10

// readMapped is read for a volume being mapped: the mapping serves the
// volume's bytes while the record is read, and a fault on it is the
// record's damage.
func (r *Reader) readMapped(m Mode, res *pcp.Result, paranoid bool) (err error) {
	v := r.cur
	start := r.pos
	v.inRead = true
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		v.inRead = false
		p := recover()
		if p == nil {
			return
		}
		if _, ok := p.(interface{ Addr() uintptr }); !ok {
			panic(p)
		}
		// the file changed under the mapping: read on through the
		// window, which sees its size now
		v.unmap()
		v.noMap = true
		r.pos = start
		// nothing half-learnt under the fault is kept
		r.shape = pdu.Shape{}
		err = &Error{File: r.a.VolumePath(v.num), Offset: int64(start), Msg: "volume cut short while read", Code: pcp.ErrLogRec}
	}()
	return r.readRecord(m, res, paranoid)
}

// mapped returns n bytes at off from the mapped window, moving it there
// when they are not all in it, or nil when it cannot.
func (v *volume) mapped(off, n int) []byte {
	if off < 0 || n < 0 || off > v.size-n {
		return nil
	}
	if off < v.mOff || off-v.mOff > len(v.m)-n {
		// the window starts a record prefix early: a record's length
		// word is read first, then the record with the bytes before it
		// (volume.record)
		at := max(0, off-pdu.LogRecordPrefix) &^ (pageSize() - 1)
		if !v.moveMap(at, max(mapWindow, off+n-at)) {
			// no mapping: read on through the window
			v.noMap = true
			return v.at(off, n)
		}
	}
	return v.m[off-v.mOff : off-v.mOff+n]
}

// wantMap reports whether a forward read of v should go through a
// mapping, making it the first time.
func (v *volume) wantMap() bool {
	if v.m != nil {
		return true
	}
	if v.noMap || v.f == nil || v.shared || v.xz != nil || len(v.holes) > 0 || v.size < mapMin {
		return false
	}
	v.noMap = true // one try
	return v.moveMap(0, mapWindow)
}
