// Command mmvdump prints an MMV file as PCP's mmvdump does: the header,
// then each table of contents entry with its records, every value with
// its metric and instance. With no argument it reads $PCP_TMP_DIR/mmv/test.
//
// A damaged file is reported as PCP's mmvdump reports it: everything up
// to the fault, then PCP's line naming it; a fault in the header ends
// the dump, one in a table of contents entry ends that entry and the
// walk goes on with the next, and the exit status is 1. A file that
// cannot be opened or mapped is reported as perror does. Where PCP's
// own checks wrap or it reads past the end of its mapping (and crashes
// or prints stray memory), every read here is bounded and the fault
// gets a line of the same kind instead.
package main

import (
	"bufio"
	"encoding/binary"
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
	// stdout is buffered as C's is when it is not a terminal
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	st := run(out, path, b)
	out.Flush()
	os.Exit(st)
}

// run dumps b, read from path, to w and returns the exit status.
func run(w io.Writer, path string, b []byte) int {
	status, _ := dumpFile(w, path, b)
	return status
}

// dumpFile is run, also saying whether the walk refused a read PCP's
// mmvdump makes outside its mapping (where its output is not PCP's).
func dumpFile(w io.Writer, path string, b []byte) (status int, strayed bool) {
	if badHeader(w, path, b) {
		return 1, false
	}
	d := walker{w: w, m: newImage(b), version: int32(binary.LittleEndian.Uint32(b[4:]))}
	status = d.walk(int32(binary.LittleEndian.Uint32(b[24:])))
	return status, d.m.strayed
}

// maxSize bounds the file mmvdump reads: a sparse file may claim far
// more than it holds.
const maxSize = 1 << 28

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
