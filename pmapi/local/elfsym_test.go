package local

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// tinyELF is an ELF64 object of three sections (none, .dynsym, .dynstr)
// whose dynamic symbols are names, each defined (in section 1) or not.
func tinyELF(names []string, defined []bool) []byte {
	le := binary.LittleEndian
	strs := []byte{0}
	syms := make([]byte, elfSymSize) // the null symbol
	for i, n := range names {
		sym := make([]byte, elfSymSize)
		le.PutUint32(sym, uint32(len(strs)))
		sym[4] = 0x12 // STB_GLOBAL, STT_FUNC
		if defined[i] {
			le.PutUint16(sym[6:], 1)
		}
		syms = append(syms, sym...)
		strs = append(strs, n...)
		strs = append(strs, 0)
	}
	hdr := make([]byte, 64)
	copy(hdr, "\x7fELF")
	hdr[4], hdr[5], hdr[6] = 2, 1, 1
	le.PutUint16(hdr[16:], uint16(elf.ET_DYN))
	le.PutUint16(hdr[18:], uint16(elf.EM_X86_64))
	le.PutUint32(hdr[20:], 1)
	le.PutUint16(hdr[0x34:], 64)
	symOff := 64
	strOff := symOff + len(syms)
	shOff := strOff + len(strs)
	le.PutUint64(hdr[elfShoff:], uint64(shOff))
	le.PutUint16(hdr[elfShentsize:], elfShdrSize)
	le.PutUint16(hdr[elfShnum:], 3)
	le.PutUint16(hdr[elfShstrndx:], 2)
	shdr := func(typ uint32, off, size int, link uint32, entsize uint64) []byte {
		h := make([]byte, elfShdrSize)
		le.PutUint32(h[4:], typ)
		le.PutUint64(h[0x18:], uint64(off))
		le.PutUint64(h[0x20:], uint64(size))
		le.PutUint32(h[0x28:], link)
		le.PutUint64(h[0x38:], entsize)
		return h
	}
	out := append(hdr, syms...)
	out = append(out, strs...)
	out = append(out, make([]byte, elfShdrSize)...)
	out = append(out, shdr(uint32(elf.SHT_DYNSYM), symOff, len(syms), 2, elfSymSize)...)
	out = append(out, shdr(uint32(elf.SHT_STRTAB), strOff, len(strs), 0, 0)...)
	return out
}

// elfDefines is what debug/elf says: whether the object parses and
// whether it defines sym among its dynamic symbols.
func elfDefines(b []byte, sym string) (parses, defines bool) {
	parses, defined, _ := elfDynamic(b)
	return parses, defined[sym]
}

// elfDynamic is debug/elf's reading of an object once: whether it
// parses, the names it defines among its dynamic symbols, and all its
// dynamic symbols' names. Parsed again for each of libc's thousands of
// names, it was nearly all of TestELFSymbolsLikeDebugELF's time.
func elfDynamic(b []byte) (parses bool, defined map[string]bool, names []string) {
	f, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		return false, nil, nil
	}
	syms, err := f.DynamicSymbols()
	if err != nil {
		return true, nil, nil
	}
	defined = make(map[string]bool)
	for _, s := range syms {
		names = append(names, s.Name)
		if s.Section != elf.SHN_UNDEF {
			defined[s.Name] = true
		}
	}
	return true, defined, names
}

// oursDefines is the same question put to this package's reader, after
// openELF's checks of the header.
func oursDefines(b []byte, sym string) (parses, defines bool) {
	if len(b) < 64 || string(b[:4]) != "\x7fELF" || b[6] != 1 || b[4] != 2 {
		return false, false
	}
	f, ok := newELFFile(bytes.NewReader(b), (*[64]byte)(b[:64]), int64(len(b)))
	if !ok {
		return false, false
	}
	return true, f.definesDynamic(sym)
}

func TestELFSymbolsLikeDebugELF(t *testing.T) {
	tiny := tinyELF([]string{"trivial_init", "malloc", "x"}, []bool{true, false, true})
	objects := map[string][]byte{"tiny": tiny}
	// the shared objects of PCP's agents and the C library, where present
	so, _ := filepath.Glob("/usr/lib/pcp/pmdas/*/pmda_*.so")
	for _, p := range append(so, "/lib/x86_64-linux-gnu/libc.so.6") {
		if b, err := os.ReadFile(p); err == nil {
			objects[p] = b
		}
	}
	n := 0
	for name, b := range objects {
		ep, defined, names := elfDynamic(b)
		syms := append([]string{"trivial_init", "malloc", "x", "nosuch_init", ""}, names...)
		for _, sym := range syms {
			ed := defined[sym]
			op, od := oursDefines(b, sym)
			if ep != op || ed != od {
				t.Errorf("%s, %q: debug/elf parses %v defines %v, ours %v %v", name, sym, ep, ed, op, od)
			}
			n++
		}
	}
	if _, d := oursDefines(tiny, "trivial_init"); !d {
		t.Error("tiny: trivial_init not found")
	}
	t.Logf("%d objects, %d names", len(objects), n)
}

func TestELFClassNames(t *testing.T) {
	for c := 0; c < 256; c++ {
		if got, want := elfClassName(byte(c)), elf.Class(c).String(); got != want {
			t.Errorf("%d: %q, debug/elf %q", c, got, want)
		}
	}
}

// FuzzELFSymbols checks the reader against debug/elf: on any object
// debug/elf reads, both find the same defined dynamic symbols; on any
// input the reader neither panics nor reads past its bounds.
func FuzzELFSymbols(f *testing.F) {
	f.Add(tinyELF([]string{"trivial_init"}, []bool{true}), "trivial_init")
	f.Add(tinyELF([]string{"a", "b"}, []bool{false, true}), "a")
	f.Fuzz(func(t *testing.T, b []byte, sym string) {
		op, od := oursDefines(b, sym)
		ep, ed := elfDefines(b, sym)
		if ep && (op != ep || od != ed) && !(len(b) < 64 || b[4] != 2) {
			t.Errorf("%q: debug/elf parses %v defines %v, ours %v %v", sym, ep, ed, op, od)
		}
	})
}
