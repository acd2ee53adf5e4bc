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
// openVolume does. An .xz volume is opened as libpcp opens it, through
// its index, and only its head is decompressed: Open needs the label,
// and the whole volume is decompressed later, when (and if) a Reader
// first reads it. Other compressed volumes are decompressed whole at
// once, as libpcp runs their decompressor when it opens them, so a
// damaged one fails here as in libpcp.
func (a *Archive) volumeLabel(vol int, features bool) (Label, error) {
	path := a.VolumePath(vol)
	name, suffix := path, ""
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) && !strings.HasSuffix(path, ".") {
		if name, suffix, err = compressedName(path); err != nil {
			return Label{}, err
		}
	}
	if suffix != ".xz" {
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
	if _, err := readXZIndex(src); err != nil {
		return Label{}, errLogRec(0, "cannot decompress "+name+": "+err.Error())
	}
	r, err := xz.NewReader(bufio.NewReaderSize(io.NewSectionReader(src, 0, 1<<62), 1<<16))
	if err != nil {
		return Label{}, errLogRec(0, "cannot decompress "+name+": "+err.Error())
	}
	// One byte more than the largest label tells a volume holding only
	// its label (pcp.ErrNoData) from one with records after it.
	head := make([]byte, labelV3Size+8+1)
	n, err := io.ReadFull(r, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		// the file opened through its index, so this is libpcp's failed
		// read of the label
		return Label{}, &Error{File: name, Code: pcp.ErrLabel, Msg: "cannot decompress: " + err.Error()}
	}
	head = head[:n]
	l, err := checkLabelSized(head[:min(n, labelV3Size+8)], n, vol, features)
	if err != nil {
		return Label{}, withFile(err, path)
	}
	return l, nil
}
