package archive

import (
	"errors"
	"fmt"
	"io"
)

// What a compressed file may decompress to. libpcp has no bound (gzip -dc
// into a temporary file, a metadata file into memory), so a small file
// made to expand a millionfold (LZH and bzip2 can) filled the disk or the
// memory before anything was read. pmlogger starts a new volume long
// before these sizes; metadata, which is held in memory, gets the
// smaller one. (Variables so that tests can lower them.)
var (
	maxDecompressedVolume int64 = 16 << 30
	maxDecompressedMeta   int64 = 1 << 30
)

// errTooLarge is a decompressed file that would pass its bound.
var errTooLarge = errors.New("decompressed size over the limit")

// limitWriter passes at most max bytes to w, then fails with errTooLarge.
type limitWriter struct {
	w   io.Writer
	n   int64
	max int64
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if l.n+int64(len(p)) > l.max {
		return 0, fmt.Errorf("%w (%d bytes)", errTooLarge, l.max)
	}
	n, err := l.w.Write(p)
	l.n += int64(n)
	return n, err
}
