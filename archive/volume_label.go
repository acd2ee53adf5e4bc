package archive

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
)

// volumeLabel reads and checks the label of data volume vol as
// openVolume does, but decompresses only the head of a compressed
// volume: Open needs the label, and the whole volume is decompressed
// later, when (and if) a Reader first reads it.
func (a *Archive) volumeLabel(vol int, features bool) (Label, error) {
	path := a.VolumePath(vol)
	if _, err := os.Stat(path); err == nil || !errors.Is(err, fs.ErrNotExist) || strings.HasSuffix(path, ".") {
		v, err := a.openVolume(vol, features)
		if err != nil {
			return Label{}, err
		}
		v.close()
		return v.label, nil
	}
	name, suffix, err := compressedName(path)
	if err != nil {
		return Label{}, err
	}
	src, err := os.Open(name)
	if err != nil {
		return Label{}, err
	}
	defer src.Close()
	r, err := decompressor(src, suffix)
	if err != nil {
		return Label{}, err
	}
	// One byte more than the largest label tells a volume holding only
	// its label (pcp.ErrNoData) from one with records after it.
	head := make([]byte, labelV3Size+8+1)
	n, err := io.ReadFull(r, head)
	if err != nil && n == 0 && err != io.EOF {
		return Label{}, errLogRec(0, "cannot decompress "+name+": "+err.Error())
	}
	head = head[:n]
	l, err := checkLabelSized(head[:min(n, labelV3Size+8)], n, vol, features)
	if err != nil {
		return Label{}, withFile(err, path)
	}
	return l, nil
}
