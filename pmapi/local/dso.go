package local

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
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
	defer f.Close()
	if !exports(f, e.Entry) {
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
func openELF(path string) (*elf.File, string) {
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
	case !bytes.Equal(hdr[:4], []byte(elf.ELFMAG)) || hdr[elf.EI_VERSION] != byte(elf.EV_CURRENT):
		fd.Close()
		return nil, "invalid ELF header"
	case elf.Class(hdr[elf.EI_CLASS]) != elf.ELFCLASS64:
		fd.Close()
		return nil, "wrong ELF class: " + elf.Class(hdr[elf.EI_CLASS]).String()
	}
	f, err := elf.NewFile(fd)
	if err != nil {
		fd.Close()
		return nil, "invalid ELF header"
	}
	return f, ""
}

// exports reports whether f defines the function sym among its dynamic
// symbols, those dlsym finds.
func exports(f *elf.File, sym string) bool {
	syms, err := f.DynamicSymbols()
	if err != nil {
		return false
	}
	for _, s := range syms {
		if s.Name == sym && s.Section != elf.SHN_UNDEF {
			return true
		}
	}
	return false
}

// errnoText is strerror's text of an operating system error.
func errnoText(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return pcp.ErrorText(-int32(errno))
	}
	return err.Error()
}
