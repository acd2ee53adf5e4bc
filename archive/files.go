package archive

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// compressed lists the suffixes of compressed archive files in the order
// libpcp tries them when the plain file is missing.
var compressed = []string{".xz", ".lzma", ".bz2", ".bz", ".gz", ".Z", ".z"}

func compressedSuffix(s string) bool {
	for _, c := range compressed {
		if s == c {
			return true
		}
	}
	return false
}

// fileData is the content of one archive file, mapped or read.
type fileData struct {
	b     []byte
	unmap func()
}

func (f *fileData) close() {
	if f != nil && f.unmap != nil {
		f.unmap()
		f.unmap = nil
	}
}

// openFile reads an archive file by its plain name, falling back to a
// compressed copy of it as libpcp does. A plain file is mapped; a
// compressed one is decompressed into memory, by libpcp's rules
// (compress.go): a damaged stream is an unreadable file, except that an
// .xz file keeps its whole blocks before the damage.
func openFile(path string) (*fileData, error) {
	f, suffix, err := openCompressed(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if suffix == "" {
		return mapFile(f)
	}
	return decompress(f, suffix)
}

// openCompressed opens the file to read for path (compressedName) and
// gives its compression suffix.
func openCompressed(path string) (*os.File, string, error) {
	name, suffix, err := compressedName(path)
	if err != nil {
		return nil, "", err
	}
	f, err := os.Open(name)
	return f, suffix, err
}

// compressedName is the file to read for path: path itself, or failing
// that its first compressed copy, with the compression suffix ("" for
// none).
func compressedName(path string) (name, suffix string, err error) {
	if i := strings.LastIndexByte(path, '.'); i >= 0 && compressedSuffix(path[i:]) {
		return path, path[i:], nil
	}
	if _, err := os.Stat(path); err != nil && errors.Is(err, fs.ErrNotExist) {
		for _, c := range compressed {
			if _, err := os.Stat(path + c); err == nil || !errors.Is(err, fs.ErrNotExist) {
				return path + c, c, nil
			}
		}
	}
	return path, "", nil
}

func decompress(f *os.File, suffix string) (*fileData, error) {
	var buf bytes.Buffer
	var w io.Writer = &buf
	var fw *fillWriter
	if suffix == ".xz" {
		// The index gives the size: the blocks decode straight into
		// one buffer of it, not through a doubling series of buffers
		// that a metadata file of megabytes leaves as garbage.
		if x, err := readXZIndex(f); err == nil && len(x.blocks) > 0 {
			if size := x.blocks[len(x.blocks)-1].end; size <= xzMaxBlock {
				fw = &fillWriter{b: make([]byte, 0, size)}
				w = fw
			}
		}
	}
	if fw == nil {
		// (A fillWriter is bounded already: the index's size, at most
		// xzMaxBlock, and the blocks decode straight into it.)
		w = &limitWriter{w: w, max: maxDecompressedMeta}
	}
	_, holes, err := decompressTo(w, f, suffix)
	if err != nil {
		return nil, errLogRec(0, "cannot decompress "+f.Name()+": "+err.Error())
	}
	b := buf.Bytes()
	if fw != nil {
		b = fw.b
	}
	if len(holes) > 0 {
		// read in order, the file ends for us where libpcp's reads fail
		b = b[:min(int64(len(b)), holes[0].off)]
	}
	return &fileData{b: b}, nil
}

// baseName strips an archive file's suffix (".meta", ".index" or a volume
// number, each perhaps followed by a compression suffix) as
// __pmLogBaseNameVol does, returning the base, the suffix (without the
// compression suffix and the dot) and whether it was an archive file name.
func baseName(name string) (base, kind string, ok bool) {
	s := name
	if i := strings.LastIndexByte(s, '.'); i >= 0 && compressedSuffix(s[i:]) {
		if strings.LastIndexByte(s[:i], '.') < 0 {
			return name, "", false
		}
		s = s[:i]
	}
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return name, "", false
	}
	q := s[i+1:]
	switch {
	case q == "index" || q == "meta":
		return s[:i], q, true
	case q != "" && isVolume(q):
		return s[:i], q, true
	}
	return name, "", false
}

// isVolume reports whether s is all of what strtol reads as a number.
func isVolume(s string) bool {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	if t != "" && (t[0] == '+' || t[0] == '-') {
		t = t[1:]
	}
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}

// volumeNumber is strtoul's reading of a volume suffix.
func volumeNumber(s string) (int, bool) {
	n, err := strconv.ParseUint(s, 10, 31)
	if err != nil {
		return 0, false
	}
	return int(n), true
}

// StatSize is __pmStat's view of a file's size: whether the file (or a
// compressed copy of it) exists, and its size, -1 for a compressed file,
// whose size on disk is not its content's.
func StatSize(path string) (size int64, exists bool) {
	if st, err := os.Stat(path); err == nil {
		return st.Size(), true
	} else if !errors.Is(err, fs.ErrNotExist) {
		return -1, false
	}
	if i := strings.LastIndexByte(path, '.'); i >= 0 && compressedSuffix(path[i:]) {
		return -1, false
	}
	for _, c := range compressed {
		if _, err := os.Stat(path + c); err == nil {
			return -1, true
		} else if !errors.Is(err, fs.ErrNotExist) {
			return -1, false
		}
	}
	return -1, false
}
