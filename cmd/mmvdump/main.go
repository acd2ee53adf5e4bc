// Command mmvdump prints an MMV file as PCP's mmvdump does: the header,
// then each table of contents entry with its records, every value with
// its metric and instance. With no argument it reads $PCP_TMP_DIR/mmv/test.
//
// The header's faults are reported as PCP's mmvdump reports them (its
// lines up to the fault, then PCP's message), and a file that cannot be
// opened or mapped as perror reports it; past the header the file is
// read through package mmv/mmvfile, so a malformed table gets one line
// saying what is wrong rather than a partial walk.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/internal/sigfrom"
	"github.com/gopcp/gopcp/mmv/mmvfile"
)

func main() {
	// as PCP's, which installs no handlers: SIGUSR1, SIGPIPE and the rest end it
	sigfrom.AsC()
	if len(os.Args) > 2 {
		fmt.Fprintf(os.Stderr, "Usage: %s <filename>\n", os.Args[0])
		os.Exit(1)
	}
	var path string
	if len(os.Args) > 1 {
		path = os.Args[1]
	} else {
		tmp, _ := pcpconf.Get("PCP_TMP_DIR")
		path = filepath.Join(tmp, "mmv", "test")
	}
	b, err := readFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, perror(path, err))
		os.Exit(1)
	}
	os.Exit(run(os.Stdout, path, b))
}

// run dumps b, read from path, to w and returns the exit status.
func run(w io.Writer, path string, b []byte) int {
	if badHeader(w, path, b) {
		return 1
	}
	f, err := mmvfile.Parse(b, limits)
	if err != nil {
		fmt.Fprintf(w, "%s: %v\n", path, err)
		return 1
	}
	if err := dump(w, path, f); err != nil {
		fmt.Fprintln(w, err)
		return 1
	}
	return 0
}

// maxSize and limits bound what mmvdump reads and decodes: a sparse file
// may claim far more than it holds. They are larger than the agent's,
// as mmvdump prints what the agent would skip.
const maxSize = 1 << 28

var limits = mmvfile.Limits{TOC: 1 << 10, Section: 1 << 20, Total: 1 << 20}

// readFile reads path, refusing one longer than maxSize before reading.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	// mmvdump maps the file: mmap refuses an empty one (EINVAL) and
	// one that is not a regular file (ENODEV)
	if st.Size() == 0 {
		return nil, &os.PathError{Op: "mmap", Path: path, Err: syscall.EINVAL}
	}
	if !st.Mode().IsRegular() {
		return nil, &os.PathError{Op: "mmap", Path: path, Err: syscall.ENODEV}
	}
	if st.Size() > maxSize {
		return nil, fmt.Errorf("%s: %d bytes, more than %d: %w", path, st.Size(), maxSize, mmvfile.ErrTooLarge)
	}
	// The file may grow between the look and the read.
	b, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err == nil && len(b) > maxSize {
		return nil, fmt.Errorf("%s: more than %d bytes: %w", path, maxSize, mmvfile.ErrTooLarge)
	}
	return b, err
}
