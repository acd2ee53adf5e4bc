package local

import (
	"encoding/binary"
	"io"
)

// The few facts about an ELF64 shared object this package needs: whether
// its dynamic symbol table defines a name. Reading them here, rather than
// through debug/elf, keeps debug/elf out of every program that links
// local contexts: it brings debug/dwarf, internal/zstd and compress/zlib,
// whose initialisation runs at every start of those programs, -L or not.

// Offsets in an ELF64 file header, a section header and a symbol.
const (
	elfIdentData  = 5    // EI_DATA
	elfShoff      = 0x28 // e_shoff
	elfShentsize  = 0x3a // e_shentsize
	elfShnum      = 0x3c // e_shnum
	elfShstrndx   = 0x3e // e_shstrndx
	elfShdrSize   = 64
	elfSymSize    = 24
	elfShtDynsym  = 11 // SHT_DYNSYM
	elfShnUndef   = 0  // SHN_UNDEF
	elfMaxSection = 1 << 31
)

// elfFile is an ELF64 object's section headers, read from r.
type elfFile struct {
	r     io.ReaderAt
	order binary.ByteOrder
	shdrs []byte // e_shnum section headers of elfShdrSize bytes
	size  int64  // the file's size: no section reaches past it
}

// newELFFile reads the section headers of the ELF64 object whose first 64
// bytes are hdr (already checked for ELF's magic, version and class), in
// a file of size bytes. It is false where debug/elf's NewFile refuses the
// file: an unknown byte order, section headers of another size or
// outside the file, or a section name table that is not among them.
func newELFFile(r io.ReaderAt, hdr *[64]byte, size int64) (*elfFile, bool) {
	f := &elfFile{r: r, size: size}
	switch hdr[elfIdentData] {
	case 1:
		f.order = binary.LittleEndian
	case 2:
		f.order = binary.BigEndian
	default:
		return nil, false
	}
	shoff := f.order.Uint64(hdr[elfShoff:])
	shentsize := int64(f.order.Uint16(hdr[elfShentsize:]))
	shnum := int64(f.order.Uint16(hdr[elfShnum:]))
	shstrndx := int64(f.order.Uint16(hdr[elfShstrndx:]))
	if shnum == 0 {
		return f, true // no sections, so no dynamic symbols
	}
	if shentsize != elfShdrSize || shoff > uint64(size) || int64(shoff)+shnum*elfShdrSize > size || shstrndx >= shnum {
		return nil, false
	}
	f.shdrs = make([]byte, shnum*elfShdrSize)
	if _, err := r.ReadAt(f.shdrs, int64(shoff)); err != nil {
		return nil, false
	}
	return f, true
}

// section is the type, file offset, size and link of section i.
func (f *elfFile) section(i int) (typ uint32, off, size uint64, link uint32) {
	h := f.shdrs[i*elfShdrSize : (i+1)*elfShdrSize]
	return f.order.Uint32(h[4:]), f.order.Uint64(h[0x18:]), f.order.Uint64(h[0x20:]), f.order.Uint32(h[0x28:])
}

// read is the content of a section at off of size bytes, false when it
// does not lie within the file.
func (f *elfFile) read(off, size uint64) ([]byte, bool) {
	if off > uint64(f.size) || size > uint64(f.size)-off || size > elfMaxSection {
		return nil, false
	}
	b := make([]byte, size)
	if _, err := f.r.ReadAt(b, int64(off)); err != nil {
		return nil, false
	}
	return b, true
}

// definesDynamic reports whether the first dynamic symbol table (as
// debug/elf's DynamicSymbols reads it) has a symbol named sym that is
// defined in some section, as dlsym would find it.
func (f *elfFile) definesDynamic(sym string) bool {
	n := len(f.shdrs) / elfShdrSize
	for i := 0; i < n; i++ {
		typ, off, size, link := f.section(i)
		if typ != elfShtDynsym {
			continue
		}
		if link == 0 || int64(link) >= int64(n) {
			return false
		}
		syms, ok := f.read(off, size)
		if !ok || len(syms)%elfSymSize != 0 {
			return false
		}
		_, soff, ssize, _ := f.section(int(link))
		strs, ok := f.read(soff, ssize)
		if !ok {
			return false
		}
		for s := syms[min(elfSymSize, len(syms)):]; len(s) >= elfSymSize; s = s[elfSymSize:] {
			name := f.order.Uint32(s)
			shndx := f.order.Uint16(s[6:])
			if shndx != elfShnUndef && cstring(strs, name) == sym {
				return true
			}
		}
		return false
	}
	return false
}

// cstring is the NUL-terminated string at off in a string table, "" when
// off is outside it or no NUL ends it.
func cstring(strs []byte, off uint32) string {
	if uint64(off) >= uint64(len(strs)) {
		return ""
	}
	s := strs[off:]
	for i, c := range s {
		if c == 0 {
			return string(s[:i])
		}
	}
	return ""
}
