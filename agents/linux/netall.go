package linux

import (
	"bufio"
	"bytes"
	"os"
	"regexp"

	"github.com/gopcp/gopcp/pmda"
)

// netAllData says which interfaces network.all leaves out: those whose
// names match the pattern of interfaces.conf (loopback, bonds, bridges,
// tunnels and the like).
type netAllData struct {
	// conf is interfaces.conf's path, read and compiled into skip at
	// the first interface asked about: the agent is built at every
	// start of a tool with -L, and compiling took 14 of its page faults.
	conf string
	skip *regexp.Regexp
	// The pattern's verdict on each interface, by instance number, with
	// the name it was given for: matched once per name, not at every sum.
	names   []string
	skipped []bool
}

// skips says whether network.all leaves out the interface in.
func (d *netAllData) skips(in pmda.Instance) bool {
	for int(in.ID) >= len(d.names) {
		d.names = append(d.names, "")
		d.skipped = append(d.skipped, false)
	}
	if n := &d.names[in.ID]; *n != in.Name || *n == "" {
		*n = in.Name
		if d.skip == nil {
			d.skip = loadInterfacesConf(d.conf)
		}
		d.skipped[in.ID] = d.skip.MatchString(in.Name)
	}
	return d.skipped[in.ID]
}

const defaultVirtualIfs = "^(lo|bond[0-9]+|team[0-9]+|face)$"

// loadInterfacesConf reads the pattern as PCP's agent does: comments
// from '#' to the end of the line and white space removed, the rest
// joined, then compiled as a POSIX extended regular expression; a
// missing, empty or bad file leaves PCP's default.
func loadInterfacesConf(path string) *regexp.Regexp {
	if b, err := os.ReadFile(path); err == nil {
		if p := interfacesPattern(b); p != "" {
			if re, err := regexp.CompilePOSIX(p); err == nil {
				return re
			}
		}
	}
	return regexp.MustCompilePOSIX(defaultVirtualIfs)
}

// interfacesPattern is the pattern of an interfaces.conf text: what is
// left without comments and without white space (isspace's six bytes).
// PCP reads the file in pieces of at most 127 bytes (fgets into a
// 128-byte buffer), each a C string, so a NUL ends the rest of its piece.
func interfacesPattern(b []byte) string {
	var p []byte
	skip := false
	r := bufio.NewReaderSize(bytes.NewReader(b), 127)
	for {
		piece, err := r.ReadSlice('\n')
		if i := bytes.IndexByte(piece, 0); i >= 0 {
			piece = piece[:i]
		}
		for _, c := range piece {
			switch {
			case c == '#':
				skip = true
			case c == '\n':
				skip = false
			case !skip && c != ' ' && (c < '\t' || c > '\r'):
				p = append(p, c)
			}
		}
		if err != nil && err != bufio.ErrBufferFull {
			return string(p)
		}
	}
}

func (x *Linux) bindNetAll() {
	names := []string{"in.bytes", "in.packets", "in.errors", "in.drops", "out.bytes", "out.packets", "out.errors", "out.drops"}
	for i, n := range names {
		x.bind("network.all."+n, srcNetDev, func(int32) (pcpAtom, error) { return u64(x.netAllSum(i)), nil })
	}
	for i, n := range []string{"bytes", "packets", "errors", "drops"} {
		x.bind("network.all.total."+n, srcNetDev, func(int32) (pcpAtom, error) {
			return u64(x.netAllSum(i) + x.netAllSum(i+4)), nil
		})
	}
}

// netAllSum sums counter i (in bytes, packets, errors, drops, then the
// same out) over physical interfaces.
func (x *Linux) netAllSum(i int) uint64 {
	col := []int{0, 1, 2, 3, 8, 9, 10, 11}[i]
	var sum uint64
	for _, in := range x.indoms[netDevInDom].list() {
		if x.netAll.skips(in) {
			continue
		}
		sum += x.netdev.ifs[in.ID].c[col]
	}
	return sum
}
