package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"sync"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/pcp"
)

// openLog starts pmproxy's log as PCP's pmproxy does (libpcp's
// pmOpenLog): the previous log moved aside to .prev, a header naming the
// host and time; the returned function writes the footer. Standard
// error serves when the log cannot be made or another live process
// writes it (a system pmproxy's log is left alone).
func openLog(path string) (io.Writer, func()) {
	f, err := ownfile.OpenLog(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) && !errors.Is(err, ownfile.ErrInUse) {
			err = pe.Err
		}
		// strerror's words, as libpcp's pmOpenLog says it
		fmt.Fprintf(os.Stderr, "pmproxy: cannot open log \"%s\" for writing : %s\n", path, pcp.TextOf(err))
		f = os.Stderr
	}
	ownfile.WriteLogHeader(f, "pmproxy")
	return f, func() {
		ownfile.WriteLogFooter(f)
		if f != os.Stderr {
			f.Close()
		}
	}
}

// stampWriter gives each line written through it the prefix of PCP's
// daemon messages, "[Sat Nov 28 17:50:18] pmproxy(PID) ", the level
// ("Info: ", "Error: ") being the message's own first word.
type stampWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *stampWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := fmt.Fprintf(s.w, "[%s] pmproxy(%d) %s", ownfile.Stamp(), os.Getpid(), b); err != nil {
		return 0, err
	}
	return len(b), nil
}

// stderrLog is a logger of lines in the daemon messages' form on
// standard error, for what pmproxy says before its log is open.
func stderrLog() *log.Logger { return log.New(&stampWriter{w: os.Stderr}, "", 0) }
