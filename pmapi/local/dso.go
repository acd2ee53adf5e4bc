package local

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"

	"github.com/gopcp/gopcp/pcp"
)

// A table entry whose entry point no Go agent answers to names one of
// PCP's C shared objects. libpcp would load it; this package cannot, so
// it finds what libpcp would find on the way and warns as libpcp warns
// where libpcp's loading stops (no file, a file dlopen refuses, no such
// entry point), and is silent where libpcp would have loaded the object
// and run it (the domain is then left out: Domains).

// foreignDSO writes libpcp's warning, if any, for an entry without a Go
// agent; pmdas is $PCP_PMDAS_DIR.
func foreignDSO(w io.Writer, e Entry, pmdas string) {
	path, ok := findDSO(e.Path, pmdas)
	if !ok {
		fmt.Fprintf(w, "__pmConnectLocal: Warning: cannot find DSO at \"%s\" or \"%s\"\n", e.Path+".so", e.Path)
		return
	}
	f, msg := openELF(path)
	if f == nil {
		fmt.Fprintf(w, "__pmConnectLocal: Warning: error attaching DSO \"%s\"\n%s: %s\n\n", path, path, msg)
		return
	}
	defer f.r.(io.Closer).Close()
	if !f.definesDynamic(e.Entry) {
		fmt.Fprintf(w, "__pmConnectLocal: Warning: couldn't find init function \"%s\" in DSO \"%s\"\n", e.Entry, path)
	}
}

// findDSO is the file libpcp loads for a table entry's path: the path
// itself, else under $PCP_PMDAS_DIR, each as it is and with ".so" added,
// the first that exists.
func findDSO(name, pmdas string) (string, bool) {
	under := pmdas + "/" + name // as libpcp writes it, not cleaned
	for _, p := range []string{name, under, under + ".so", name + ".so"} {
		if syscall.Access(p, 0) == nil { // F_OK, as libpcp asks
			return p, true
		}
	}
	return "", false
}

// openELF opens a shared object as far as the dynamic loader checks it
// before it maps it, giving dlerror's text where the loader would stop:
// a file that cannot be opened or read, one shorter than an ELF header,
// one that is not ELF or not of this machine's class.
func openELF(path string) (*elfFile, string) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, "cannot open shared object file: " + errnoText(err)
	}
	var hdr [64]byte // an ELF64 header
	n, err := io.ReadFull(fd, hdr[:])
	switch {
	case err != nil && n == 0 && !errors.Is(err, io.EOF):
		fd.Close()
		return nil, "cannot read file data: " + errnoText(err)
	case n < len(hdr):
		fd.Close()
		return nil, "file too short"
	case string(hdr[:4]) != "\x7fELF" || hdr[6] != 1: // ELFMAG, EI_VERSION is EV_CURRENT
		fd.Close()
		return nil, "invalid ELF header"
	case hdr[4] != 2: // EI_CLASS is ELFCLASS64
		fd.Close()
		return nil, "wrong ELF class: " + elfClassName(hdr[4])
	}
	var size int64
	if st, err := fd.Stat(); err == nil {
		size = st.Size()
	}
	f, ok := newELFFile(fd, &hdr, size)
	if !ok {
		fd.Close()
		return nil, "invalid ELF header"
	}
	return f, ""
}

// elfClassName is debug/elf's name for an EI_CLASS value.
func elfClassName(c byte) string {
	switch c {
	case 0:
		return "ELFCLASSNONE"
	case 1:
		return "ELFCLASS32"
	case 2:
		return "ELFCLASS64"
	}
	// above the last it knows, debug/elf counts on from it
	return "ELFCLASS64+" + strconv.Itoa(int(c)-2)
}

// errnoText is strerror's text of an operating system error.
func errnoText(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return pcp.ErrorText(-int32(errno))
	}
	return err.Error()
}
