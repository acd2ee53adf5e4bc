package archive

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/gopcp/gopcp/pdu"
)

// volume is one data volume being read. A plain file is read through a
// window of large sequential reads (so memory stays small however big
// the volume); an .xz one a block at a time (volume_xz.go); another
// compressed one is decompressed whole into a temporary file, as libpcp
// decompresses it.
type volume struct {
	num   int
	label Label
	hdr   int // labelSize: where the records start
	size  int

	f      *os.File // plain file, nil when in memory
	shared bool     // f belongs to the Archive (a decompressed copy)
	mem    []byte   // the content, when in memory
	holes  []span   // content that does not read (damaged .xz blocks)
	win    []byte   // a window of f's content ...
	winOff int      // ... starting at this offset

	xz      *xzVolume // an .xz volume read a block at a time
	xzBlock *xzCached // the block the last read returned part of

	pool *windowPool // the archive's, where win goes when closed
	read int64       // bytes read into win, for tests

	// m maps a window of the file for forward reads (volume_map.go),
	// used while inRead; mOff is the file offset it maps from; noMap
	// says not to map it (again)
	m      []byte
	mOff   int
	inRead bool
	noMap  bool
}

// windowSize is the size of each read of a plain volume. It is small
// because a fresh buffer costs a page fault per page when first touched,
// and many runs read a few records (the label, the last record for the
// archive's end, pmval -s 1): a megabyte window cost more than reading
// the records did. Reading a large archive through it costs one pread
// per 64 KB, which is little next to decoding the records.
const windowSize = 64 << 10

// head returns the first n bytes of the volume, or nil. A plain file is
// read directly: the label is all that opening a volume needs, and
// Archive.Open, End and NewReader each open volumes, so filling the
// window here would read up to a megabyte each time for a few hundred
// bytes.
func (v *volume) head(n int) []byte {
	if v.f == nil || (v.winOff == 0 && n <= len(v.win)) {
		return v.at(0, n)
	}
	b := make([]byte, n)
	if got, err := v.f.ReadAt(b, 0); got < n && err != nil {
		return nil
	}
	return b
}

// at returns n bytes at off, or nil when they are not all in the file.
// The slice is valid until the next call.
func (v *volume) at(off, n int) []byte {
	if off < 0 || n < 0 || off > v.size-n {
		return nil
	}
	for _, h := range v.holes {
		if int64(off) < h.end && int64(off+n) > h.off {
			return nil
		}
	}
	if v.xz != nil {
		return v.xzAt(off, n)
	}
	if v.inRead && v.m != nil {
		return v.mapped(off, n)
	}
	if v.f == nil {
		return v.mem[off : off+n]
	}
	if off >= v.winOff && off+n <= v.winOff+len(v.win) {
		return v.win[off-v.winOff : off-v.winOff+n]
	}
	if off > v.winOff && off < v.winOff+len(v.win) {
		return v.slide(off, n)
	}
	size := max(windowSize, n)
	// A fresh forward window starts a record prefix early: a record's
	// length word is read first, then the record with the bytes before
	// it (record), which a window starting at the length word lacks,
	// so every record of a walk started mid-volume was read twice
	// (156 MB of pread for a 49 MB stretch).
	start := max(0, off-pdu.LogRecordPrefix)
	size = max(size, off-start+n)
	if off < v.winOff {
		// Reading backwards: the window ends where the request does.
		start = max(0, off+n-size)
	}
	end := min(start+size, v.size)
	// Sized to what is read: a window as large as a small volume costs
	// page faults and clearing for nothing.
	if cap(v.win) < end-start {
		v.win = v.pool.get(end-start, cap(v.win))
	}
	v.win = v.win[:end-start]
	got, err := v.f.ReadAt(v.win, int64(start))
	v.read += int64(got)
	if err != nil && err != io.EOF {
		v.win = v.win[:0]
		return nil
	}
	v.win = v.win[:got]
	v.winOff = start
	if off+n > start+got {
		return nil
	}
	return v.win[off-start : off-start+n]
}

func (v *volume) close() {
	if v != nil {
		v.unmap()
	}
	if v != nil && v.xz != nil {
		v.xz.unpin(v.xzBlock)
		v.xzBlock = nil
	}
	if v != nil && v.pool != nil {
		v.pool.put(v.win)
		v.win, v.winOff = nil, 0
	}
	if v != nil && v.f != nil {
		if !v.shared {
			v.f.Close()
		}
		v.f = nil
	}
}

// openVolume opens data volume vol and checks its label as
// __pmLogChangeVol does.
func (a *Archive) openVolume(vol int, features bool) (*volume, error) {
	path := a.VolumePath(vol)
	v := &volume{num: vol, pool: &a.windows}
	if f, err := os.Open(path); err == nil {
		st, err := f.Stat()
		if err != nil || !st.Mode().IsRegular() || st.Size() != int64(int(st.Size())) {
			fd, err := mapFile(f)
			f.Close()
			if err != nil {
				return nil, err
			}
			v.mem, v.size = fd.b, len(fd.b)
		} else {
			v.f, v.size = f, int(st.Size())
		}
	} else if !errors.Is(err, fs.ErrNotExist) || strings.HasSuffix(path, ".") {
		return nil, err
	} else if z, err := a.xzVolumeOf(vol, path); err != nil {
		return nil, err
	} else if z != nil {
		v.xz, v.size = z, z.size
		if z.size > 0 && v.at(0, 1) == nil {
			v.close()
			return nil, errXZLabel(z.f.Name())
		}
	} else {
		f, size, holes, err := a.decompressed(vol, path)
		if err != nil {
			return nil, err
		}
		v.f, v.size, v.shared, v.holes = f, size, true, holes
	}
	l, err := checkLabelSized(v.head(min(v.size, labelV3Size+8)), v.size, vol, features)
	if err != nil {
		v.close()
		return nil, withFile(err, path)
	}
	v.label = l
	v.hdr = labelSize(l.Version())
	return v, nil
}

// decompressed returns an unlinked temporary file holding the content of
// compressed volume vol, made once and shared by the archive's readers,
// as libpcp decompresses into a temporary file: memory stays small
// however large the volume.
// Its holes are the spans of damaged .xz blocks, which do not read.
func (a *Archive) decompressed(vol int, path string) (*os.File, int, []span, error) {
	a.tempMu.Lock()
	defer a.tempMu.Unlock()
	if t, ok := a.temps[vol]; ok {
		return t.f, t.size, t.holes, nil
	}
	name, suffix, err := compressedName(path)
	if err != nil {
		return nil, 0, nil, err
	}
	src, err := os.Open(name)
	if err != nil {
		return nil, 0, nil, err
	}
	defer src.Close()
	tmp, n, holes, err := decompressTemp(src, suffix, maxDecompressedVolume)
	if err != nil {
		return nil, 0, nil, err
	}
	if len(holes) > 0 && holes[0].off == 0 {
		// the first .xz block is damaged: libpcp's read of the label fails
		tmp.Close()
		return nil, 0, nil, errXZLabel(name)
	}
	if a.temps == nil {
		a.temps = map[int]tempVolume{}
	}
	a.temps[vol] = tempVolume{tmp, int(n), holes}
	return tmp, int(n), holes, nil
}

type tempVolume struct {
	f     *os.File
	size  int
	holes []span
}

// Close releases the decompressed copies of compressed volumes. Readers
// of the archive must not be used after it.
func (a *Archive) Close() error {
	a.tempMu.Lock()
	defer a.tempMu.Unlock()
	for v, t := range a.temps {
		t.f.Close()
		delete(a.temps, v)
	}
	for v, z := range a.xzs {
		z.release()
		z.f.Close()
		delete(a.xzs, v)
	}
	return nil
}
