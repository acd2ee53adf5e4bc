package archive

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// WriterOptions describe the archive a Writer creates.
type WriterOptions struct {
	// Version is Version3 (the default when zero) or Version2.
	Version int
	// PID is the logging process, for the label; zero means this one.
	PID int32
	// Hostname is the collection host the label names.
	Hostname string
	// Timezone is the POSIX TZ of the collection host; Zoneinfo its
	// zoneinfo name (version 3 only).
	Timezone string
	Zoneinfo string
	// Features is the version 3 label's feature bits.
	Features uint32
}

// Writer creates an archive as PCP 6.0.3's pmlogger writes it: the index
// (.index), metadata (.meta) and data volumes (.0, .1, ...), each opened
// with O_EXCL so an existing archive is never overwritten.
//
// Every record goes to its file in one write system call from a complete
// buffer, so a process killed at any moment leaves each file ending in
// whole records, or at worst one partial record that readers take for
// the end. The labels are written when the first data record is (Start
// may be called earlier), stamped with that record's time, as libpcp
// does; metadata before that is an error.
//
// A Writer keeps no record of what it wrote beyond the offsets and the
// current volume: deciding what to write (descriptors once, instance
// domains when they change) is the caller's, with the helpers in
// write_indom.go. A Writer is not safe for concurrent use.
type Writer struct {
	base    string
	label   Label
	data    *os.File
	meta    *os.File
	index   *os.File
	vol     int
	dataOff int64
	metaOff int64
	started bool
	buf     []byte
}

// ErrNotStarted is returned by metadata writes before the labels exist.
var ErrNotStarted = errors.New("archive: no label written yet")

// Create makes the index, metadata and first data volume of a new
// archive with base name base. The files must not exist.
func Create(base string, opt WriterOptions) (*Writer, error) {
	v := opt.Version
	if v == 0 {
		v = Version3
	}
	if v != Version2 && v != Version3 {
		return nil, &Error{Code: pcp.ErrLabel, Msg: fmt.Sprintf("cannot write archive version %d", v)}
	}
	pid := opt.PID
	if pid == 0 {
		pid = int32(os.Getpid())
	}
	w := &Writer{base: base, label: Label{
		Magic:    Magic | uint32(v),
		PID:      pid,
		Hostname: opt.Hostname,
		Timezone: opt.Timezone,
		Zoneinfo: opt.Zoneinfo,
		Features: opt.Features,
	}}
	if v == Version2 {
		w.label.Features, w.label.Zoneinfo = 0, ""
	}
	var err error
	if w.index, err = newFile(base + ".index"); err != nil {
		return nil, err
	}
	if w.meta, err = newFile(base + ".meta"); err != nil {
		w.index.Close()
		os.Remove(base + ".index")
		return nil, err
	}
	if w.data, err = newFile(base + ".0"); err != nil {
		w.index.Close()
		w.meta.Close()
		os.Remove(base + ".index")
		os.Remove(base + ".meta")
		return nil, err
	}
	return w, nil
}

func newFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("archive: creating %s: %w", path, err)
	}
	return f, nil
}

// Version is the archive format version being written.
func (w *Writer) Version() int { return w.label.Version() }

// Base is the archive's base name.
func (w *Writer) Base() string { return w.base }

// Volume is the number of the data volume being written.
func (w *Writer) Volume() int { return w.vol }

// Started reports whether the labels have been written.
func (w *Writer) Started() bool { return w.started }

// Label is the label as written (or to be written) to the current volume.
func (w *Writer) Label() Label { return w.label }

// Offsets are the current ends of the data volume and the metadata,
// what a temporal index entry records.
func (w *Writer) Offsets() (data, meta int64) { return w.dataOff, w.metaOff }

// Start writes the label of each file, stamped t. PutResult calls it for
// the first record when it has not been called.
func (w *Writer) Start(t pcp.Timestamp) error {
	if w.started {
		return nil
	}
	w.label.Start = t
	for _, f := range []struct {
		file *os.File
		vol  int32
		off  *int64
	}{{w.index, VolIndex, nil}, {w.meta, VolMeta, &w.metaOff}, {w.data, 0, &w.dataOff}} {
		w.label.Vol = f.vol
		b := AppendLabel(w.buf[:0], &w.label)
		if _, err := f.file.Write(b); err != nil {
			return fmt.Errorf("archive: writing label of %s: %w", f.file.Name(), err)
		}
		if f.off != nil {
			*f.off = int64(len(b))
		}
		w.buf = b
	}
	w.label.Vol = int32(w.vol)
	w.started = true
	return nil
}

// write appends b to f in one system call and advances *off.
func write(f *os.File, b []byte, off *int64) error {
	n, err := f.Write(b)
	*off += int64(n)
	if err != nil {
		return fmt.Errorf("archive: writing %s: %w", f.Name(), err)
	}
	return nil
}

// PutResult appends r to the current data volume as one record.
func (w *Writer) PutResult(r *pcp.Result) error {
	if !w.started {
		if err := w.Start(r.Timestamp); err != nil {
			return err
		}
	}
	// The body goes behind a fake PDU header, whose last word becomes
	// the record's leading length.
	b := append(w.buf[:0], make([]byte, pdu.LogRecordPrefix)...)
	b = pdu.AppendLogRecord(b, 0, r, w.Version() == Version3)
	b = binary.BigEndian.AppendUint32(b, 0)
	rec := b[pdu.LogRecordPrefix-4:]
	binary.BigEndian.PutUint32(rec, uint32(len(rec)))
	binary.BigEndian.PutUint32(rec[len(rec)-4:], uint32(len(rec)))
	w.buf = b
	return write(w.data, rec, &w.dataOff)
}

// ResultSize is the size on disk of r's record, for deciding on a volume
// switch before writing it.
func (w *Writer) ResultSize(r *pcp.Result) int {
	b := append(w.buf[:0], make([]byte, pdu.LogRecordPrefix)...)
	b = pdu.AppendLogRecord(b, 0, r, w.Version() == Version3)
	w.buf = b
	return len(b) - pdu.LogRecordPrefix + 8
}

// PutMark appends a <mark> record at t: a record without metrics, which
// tells readers that the data have a gap here.
func (w *Writer) PutMark(t pcp.Timestamp) error {
	if !w.started {
		return ErrNotStarted
	}
	b := w.buf[:0]
	n := 20
	if w.Version() == Version3 {
		n = 24
	}
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	b = w.appendStamp(b, t)
	b = binary.BigEndian.AppendUint32(b, 0)
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	w.buf = b
	return write(w.data, b, &w.dataOff)
}

// appendStamp appends t in the version's timestamp layout.
func (w *Writer) appendStamp(b []byte, t pcp.Timestamp) []byte {
	if w.Version() == Version3 {
		var s [12]byte
		putTimestamp(s[:], t)
		return append(b, s[:]...)
	}
	b = binary.BigEndian.AppendUint32(b, uint32(int32(t.Sec)))
	return binary.BigEndian.AppendUint32(b, uint32(t.Nsec/1000))
}

// PutIndex appends a temporal index entry: at t the current volume's data
// ended at dataOff and the metadata at metaOff.
func (w *Writer) PutIndex(t pcp.Timestamp, dataOff, metaOff int64) error {
	if !w.started {
		return ErrNotStarted
	}
	b := w.appendStamp(w.buf[:0], t)
	b = binary.BigEndian.AppendUint32(b, uint32(w.vol))
	if w.Version() == Version3 {
		b = binary.BigEndian.AppendUint64(b, uint64(metaOff))
		b = binary.BigEndian.AppendUint64(b, uint64(dataOff))
	} else {
		if dataOff > 0x7fffffff || metaOff > 0x7fffffff {
			return fmt.Errorf("archive: offset %d or %d beyond a version 2 index", dataOff, metaOff)
		}
		b = binary.BigEndian.AppendUint32(b, uint32(metaOff))
		b = binary.BigEndian.AppendUint32(b, uint32(dataOff))
	}
	w.buf = b
	var off int64
	return write(w.index, b, &off)
}

// NewVolume closes the current data volume and starts the next, with its
// label. It returns the new volume's number.
func (w *Writer) NewVolume() (int, error) {
	if !w.started {
		return w.vol, ErrNotStarted
	}
	next := w.vol + 1
	f, err := newFile(w.base + "." + itoa(next))
	if err != nil {
		return w.vol, err
	}
	w.data.Close()
	w.data, w.vol = f, next
	w.label.Vol = int32(next)
	b := AppendLabel(w.buf[:0], &w.label)
	w.buf = b
	w.dataOff = 0
	return next, write(w.data, b, &w.dataOff)
}

// Close closes the archive's files. It writes nothing: the final index
// entry, if wanted, is the caller's (PutIndex).
func (w *Writer) Close() error {
	var errs []error
	for _, f := range []*os.File{w.data, w.meta, w.index} {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	w.data, w.meta, w.index = nil, nil, nil
	return errors.Join(errs...)
}
