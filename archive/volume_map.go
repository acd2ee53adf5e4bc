package archive

import (
	"runtime/debug"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// A large plain volume read forwards is read through a mapping of the
// file instead of pread into the window: the kernel's copy of every
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
// a copy), so the mapping can go when the volume closes. The pages more
// than mapDrop bytes behind the read are let go (MADV_DONTNEED: still
// in the page cache, out of the process's resident set) in runs of at
// least dropMin pages, so the resident memory a walk adds stays under
// about mapDrop and a run: letting go every megabyte raised pmval's peak
// over the 100 MB archive by 2 MB (9.2 to 11.1), every 128 KB by none,
// for the same CPU. A read placed
// back behind the pages let go lets go of those it had read ahead of
// them, and lets go again from its new place on.
//
// mapMin is the smallest volume mapped: a small one is read in a few
// windows, and its mapping would cost more system calls than it saves.
var mapMin = 4 << 20

const mapDrop = 128 << 10

// dropMin is the fewest pages let go at once. x86 Linux flushes the TLB
// entries of at most 33 pages (tlb_single_page_flush_ceiling) one page at
// a time and of more pages all at once; one at a time cost about 8 us
// more a call here (a virtual machine): reading the 100 MB volume took a
// median 30.5 ms of CPU letting go of 32-page runs, 24.3 of 34-page runs
// and 23.0 of 64-page runs. Letting go once 256 KB lay behind the
// read, as before, gave runs of just over 128 KB, 32 or 33 pages, as the
// records fell: pmval -a 20180102 (7 MB, 845 records of about 8 KB)
// made 18 of its 50 calls so; the 100 MB archive's records of 41 KB
// fell in runs of 40 and 41 pages.
const dropMin = 34

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

// mapped returns n bytes at off from the mapping, letting go of the
// pages behind them, or nil when they are not all in it.
func (v *volume) mapped(off, n int) []byte {
	if off < 0 || n < 0 || off > len(v.m)-n {
		return nil
	}
	if off < v.mDrop {
		// placed back behind the pages let go (a fetch placed at the
		// archive's start again): the pages where the read stopped go
		// now, and the read lets go from here as it moves on, or every
		// page up to the old place would stay
		v.release(v.mDrop, min(v.mHigh+pageSize()-1, len(v.m))&^(pageSize()-1))
		v.mDrop = off &^ (pageSize() - 1)
		v.mHigh = 0
	}
	v.mHigh = max(v.mHigh, off+n)
	if to := (off - mapDrop) &^ (pageSize() - 1); to-v.mDrop >= dropMin*pageSize() {
		v.release(v.mDrop, to)
		v.mDrop = to
	}
	return v.m[off : off+n]
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
	v.m = mapVolume(v.f, v.size)
	v.mDrop, v.mHigh = 0, 0
	return v.m != nil
}
