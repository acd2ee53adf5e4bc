package archive

import (
	"io"
	"os"
)

// mapFile reads the whole of f in one read of its size. Reading rather
// than mapping keeps a file that shrinks under us (a pmlogger rewriting
// it) from faulting the process; the files are read sequentially once in
// any case.
func mapFile(f *os.File) (*fileData, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Mode().IsRegular() && st.Size() > 0 {
		b := make([]byte, st.Size())
		n, err := io.ReadFull(f, b)
		if err == nil || err == io.ErrUnexpectedEOF {
			return &fileData{b: b[:n]}, nil
		}
		return nil, err
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	return &fileData{b: b}, nil
}
