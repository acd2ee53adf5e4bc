package local

import (
	"io"
	"sync"
)

// lockedWriter serializes the writes of a context and of its companion's
// standard error copier to a caller's writer that is not a file.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
