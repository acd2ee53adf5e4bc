package archive

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/ulikunitz/xz"

	"github.com/gopcp/gopcp/pcp"
)

// readsMagic reports whether f starts with want.
func readsMagic(f *os.File, want []byte) bool {
	got := make([]byte, len(want))
	_, err := f.ReadAt(got, 0)
	return err == nil && bytes.Equal(got, want)
}

// volumeLabel reads and checks the label of data volume vol as
// openVolume does. Compressed volumes fail here as in libpcp: those of
// external decompressors are decompressed whole, as libpcp runs the
// decompressor when it opens them; an .xz volume is opened through its
// index and its first block decoded, as libpcp's read of the label
// decodes it (kept for the readers to come when the volume is read by
// blocks; of a file read as a stream, only the head is decoded here).
func (a *Archive) volumeLabel(vol int, features bool) (Label, error) {
	path := a.VolumePath(vol)
	name, suffix := path, ""
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) && !strings.HasSuffix(path, ".") {
		if name, suffix, err = compressedName(path); err != nil {
			return Label{}, err
		}
	}
	z, err := a.xzVolumeOf(vol, path)
	if err != nil {
		return Label{}, err
	}
	if suffix != ".xz" || z != nil {
		v, err := a.openVolume(vol, features)
		if err != nil {
			return Label{}, err
		}
		v.close()
		return v.label, nil
	}
	src, err := os.Open(name)
	if err != nil {
		return Label{}, err
	}
	defer src.Close()
	if !readsMagic(src, xzMagic) {
		return Label{}, errLogRec(0, "cannot decompress "+name+": not in xz format")
	}
	x, err := readXZIndex(src)
	if err != nil {
		return Label{}, errLogRec(0, "cannot decompress "+name+": "+err.Error())
	}
	if len(x.blocks) <= 1 {
		v, err := a.openVolume(vol, features)
		if err != nil {
			return Label{}, err
		}
		v.close()
		return v.label, nil
	}
	head := &headWriter{b: make([]byte, 0, labelV3Size+8+1)}
	_, err = x.copyBlock(head, src, x.blocks[0], false)
	switch {
	case err == nil:
		return a.checkHead(head.b, int(x.blocks[len(x.blocks)-1].end), vol, features, path)
	case errors.Is(err, errXZBlock):
		return Label{}, &Error{File: name, Code: pcp.ErrLabel, Msg: "damaged xz block"}
	case !errors.Is(err, errXZFilters):
		return Label{}, err
	}
	// A check kind the block reader does not compute (xz writes none such):
	// the head of the stream, through the stream reader.
	r, err := xz.NewReader(bufio.NewReaderSize(io.NewSectionReader(src, 0, 1<<62), 1<<16))
	if err != nil {
		return Label{}, errLogRec(0, "cannot decompress "+name+": "+err.Error())
	}
	// One byte more than the largest label tells a volume holding only
	// its label (pcp.ErrNoData) from one with records after it.
	buf := make([]byte, labelV3Size+8+1)
	n, err := io.ReadFull(r, buf)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		// the file opened through its index, so this is libpcp's failed
		// read of the label
		return Label{}, &Error{File: name, Code: pcp.ErrLabel, Msg: "cannot decompress: " + err.Error()}
	}
	return a.checkHead(buf[:n], n, vol, features, path)
}

// checkHead checks the label at the head of a volume whose content is
// size bytes.
func (a *Archive) checkHead(head []byte, size, vol int, features bool, path string) (Label, error) {
	l, err := checkLabelSized(head[:min(len(head), labelV3Size+8)], size, vol, features)
	if err != nil {
		return Label{}, withFile(err, path)
	}
	return l, nil
}

// headWriter keeps the first cap(b) bytes written to it.
type headWriter struct{ b []byte }

func (h *headWriter) Write(p []byte) (int, error) {
	if room := cap(h.b) - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}
