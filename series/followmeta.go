package series

import (
	bo "encoding/binary"
	"errors"
	"io"
	"os"
)

// maxCutPolls is how many polls running a metadata file may end in a
// record cut short before the cut is taken for damage (and the archive
// refused, as libpcp refuses it). pmlogger writes a metadata record in
// one write, so a cut lasts while that write is under way; one still
// there after this many polls is not pmlogger at work.
const maxCutPolls = 10

// metaTail finds where the complete records of a metadata file end, as
// PCP's pmproxy discovery reads the file incrementally (discover.c's
// process_metadata): from where the last scan stopped, a record at a
// time by its length word, up to a record the file does not yet hold
// whole (or a length that is no record's), where the next scan goes on.
type metaTail struct {
	path string
	done int64       // the end of the complete records found
	file os.FileInfo // the file scanned: another one is read afresh
	gen  int         // counts the times it was read afresh
}

// scan reads the records added since the last scan: complete is where
// the complete records end, size the file's size (complete < size: the
// last record is cut short, or not a record).
func (m *metaTail) scan() (complete, size int64, err error) {
	f, err := os.Open(m.path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	size = st.Size()
	if m.file != nil && !os.SameFile(m.file, st) || size < m.done {
		m.done = 0 // another file, or cut shorter: read it afresh
		m.gen++
	}
	m.file = st
	var word [4]byte
	for m.done+4 <= size {
		if _, err := f.ReadAt(word[:], m.done); err != nil && !errors.Is(err, io.EOF) {
			return 0, 0, err
		}
		n := int64(int32(bo.BigEndian.Uint32(word[:])))
		if n < 12 || m.done+n > size {
			break
		}
		m.done += n
	}
	return m.done, size, nil
}
