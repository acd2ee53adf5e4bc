package pmda

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// TestPipeStreams: an agent's pipe ends opened again carry its requests
// and answers both ways, end with the writer's close, and leave the
// originals in the mode they had (other holders of a pipe are not
// affected); a write to a pipe whose reader has gone fails with EPIPE;
// files that are not pipes are served as they are.
func TestPipeStreams(t *testing.T) {
	t.Parallel()
	inR, inW, err := os.Pipe() // pmcd writes inW, the agent reads inR
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe() // the agent writes outW, pmcd reads outR
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, f := range []*os.File{inR, inW, outR, outW} {
			f.Close()
		}
	}()
	// os.Pipe's ends are non-blocking, read through Go's poller; a
	// shell's are blocking. Either way they stay as they were.
	was := []bool{nonblocking(t, inR), nonblocking(t, outW)}
	r, w, done := pipeStreams(inR, outW)
	defer done()
	if runtime.GOOS == "linux" {
		if r == io.Reader(inR) {
			t.Fatal("the input pipe was not opened again")
		}
		for i, f := range []*os.File{inR, outW} {
			if nb := nonblocking(t, f); nb != was[i] {
				t.Errorf("%s: non-blocking %v, was %v", f.Name(), nb, was[i])
			}
		}
	}
	req := []byte("request")
	go inW.Write(req)
	got := make([]byte, len(req))
	if _, err := io.ReadFull(r, got); err != nil || string(got) != string(req) {
		t.Fatalf("read %q, %v", got, err)
	}
	if _, err := w.Write([]byte("answer")); err != nil {
		t.Fatal(err)
	}
	got = make([]byte, 6)
	if _, err := io.ReadFull(outR, got); err != nil || string(got) != "answer" {
		t.Fatalf("answer read %q, %v", got, err)
	}
	inW.Close()
	if n, err := r.Read(got); n != 0 || err != io.EOF {
		t.Errorf("after the writer closed: %d, %v; want EOF", n, err)
	}
	outR.Close()
	if _, err := w.Write([]byte("late")); !errors.Is(err, syscall.EPIPE) {
		t.Errorf("write with the reader gone: %v, want EPIPE", err)
	}

	// Not pipes: served as they are.
	f, err := os.Create(filepath.Join(t.TempDir(), "file"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r2, w2, done2 := pipeStreams(f, f)
	defer done2()
	if r2 != io.Reader(f) || w2 != io.Writer(f) {
		t.Errorf("a file was opened again: %T, %T", r2, w2)
	}
}

func nonblocking(t *testing.T, f *os.File) bool {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags uintptr
	rc.Control(func(fd uintptr) {
		flags, _, _ = syscall.RawSyscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
	})
	return flags&syscall.O_NONBLOCK != 0
}
