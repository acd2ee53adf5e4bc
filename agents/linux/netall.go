package linux

import (
	"os"
	"regexp"
	"strings"
)

// netAllData says which interfaces network.all leaves out: those whose
// names match the pattern of interfaces.conf (loopback, bonds, bridges,
// tunnels and the like).
type netAllData struct {
	skip *regexp.Regexp
}

const defaultVirtualIfs = "^(lo|bond[0-9]+|team[0-9]+|face)$"

// loadInterfacesConf reads the pattern, comments and white space removed;
// a missing or bad file leaves PCP's default.
func loadInterfacesConf(path string) *regexp.Regexp {
	b, err := os.ReadFile(path)
	if err == nil {
		var p strings.Builder
		for _, line := range strings.Split(string(b), "\n") {
			line, _, _ = strings.Cut(line, "#")
			for _, c := range line {
				if c != ' ' && c != '\t' && c != '\r' {
					p.WriteRune(c)
				}
			}
		}
		if re, err := regexp.Compile(p.String()); err == nil && p.Len() > 0 {
			return re
		}
	}
	return regexp.MustCompile(defaultVirtualIfs)
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
		if x.netAll.skip.MatchString(in.Name) {
			continue
		}
		sum += x.netdev.ifs[in.ID].c[col]
	}
	return sum
}
