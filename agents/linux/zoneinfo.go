package linux

import (
	"bytes"
	"github.com/gopcp/gopcp/pmda"
	"strconv"
	"strings"
)

// zoneData is /proc/zoneinfo: per zone of each node ("Normal::node0") and
// per node ("node0", the kernel's per-node stats), the figures PCP reports
// converted from pages to Kbytes; and the protection (lowmem reserve)
// figures per zone ("Normal::node0::lowmem_reserved2").
type zoneData struct {
	keys    map[string]int // zoneinfo field -> column
	vals    [][]uint64     // by instance: by column
	has     [][]bool
	present []bool
	prot    []uint64 // by protection instance
	protOK  []bool
	name    []byte
	pname   []byte
}

// zoneAlias names /proc/zoneinfo lines PCP reports under another name, or
// (an empty name) not at all: nr_free_pages repeats "pages free", which
// PCP reports as mem.zoneinfo.free, leaving its own metric empty.
func zoneAlias(key string) (string, bool) {
	switch key {
	case "node_scanned":
		return "scanned", true
	case "workingset_activate_anon":
		return "workingset_active_anon", true
	case "workingset_activate_file":
		return "workingset_active_file", true
	case "nr_free_pages":
		return "", true
	}
	return "", false
}

func (x *Linux) bindZoneinfo() {
	z := &x.zones
	z.keys = make(map[string]int)
	x.sources[srcZoneinfo] = x.readZoneinfo
	const prefix = "mem.zoneinfo."
	for i := range pcpDescs {
		name := pcpDescs[i].Name
		if !strings.HasPrefix(name, prefix) || name == prefix+"protection" {
			continue
		}
		col := len(z.keys)
		z.keys[name[len(prefix):]] = col
		x.bind(name, srcZoneinfo, func(inst int32) (pcpAtom, error) {
			if inst < 0 || int(inst) >= len(z.vals) || !z.present[inst] {
				return pcpAtom{}, noInst
			}
			if !z.has[inst][col] {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return u64(z.vals[inst][col] * x.pageSize / 1024), nil
		})
	}
	x.bind(prefix+"protection", srcZoneinfo, func(inst int32) (pcpAtom, error) {
		if inst < 0 || int(inst) >= len(z.prot) || !z.protOK[inst] {
			return pcpAtom{}, noInst
		}
		return u64(z.prot[inst] * x.pageSize / 1024), nil
	})
}

// readZoneinfo parses /proc/zoneinfo. Zones with no pages present are
// left out of the instance domain, as PCP hides them.
func (x *Linux) readZoneinfo() error {
	b, err := x.readProc("zoneinfo")
	if err != nil {
		return err
	}
	z := &x.zones
	clear(z.present)
	clear(z.protOK)
	t, pt := &x.indoms[zoneInDom], &x.indoms[zoneProtInDom]
	t.begin()
	pt.begin()
	cur, zone := int32(-1), int32(-1)
	slot := func(name []byte) int32 {
		id := t.add(name)
		for int(id) >= len(z.vals) {
			z.vals = append(z.vals, make([]uint64, len(z.keys)))
			z.has = append(z.has, make([]bool, len(z.keys)))
			z.present = append(z.present, false)
		}
		clear(z.has[id])
		z.present[id] = true
		return id
	}
	var node []byte
	presentCol := z.keys["present"]
	finish := func() {
		// A zone without pages is hidden, as PCP hides it.
		if zone >= 0 && (!z.has[zone][presentCol] || z.vals[zone][presentCol] == 0) {
			z.present[zone] = false
			t.scratch = t.scratch[:len(t.scratch)-1]
		}
	}
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		if hasPrefix(line, "Node ") {
			finish()
			x.fields = fields(line, x.fields)
			if len(x.fields) < 4 {
				cur, zone = -1, -1
				continue
			}
			node = bytes.TrimSuffix(x.fields[1], []byte(","))
			z.name = append(append(append(z.name[:0], x.fields[3]...), "::node"...), node...)
			// A node's own figures follow its first zone's heading; PCP lists
			// the node before that zone.
			next, _ := nextLine(b)
			perNode := hasPrefix(trimSpace(next), "per-node stats")
			var nodeID int32 = -1
			if perNode {
				z.pname = append(append(z.pname[:0], "node"...), node...)
				nodeID = slot(z.pname)
			}
			zone = slot(z.name)
			cur = zone
			if perNode {
				cur = nodeID
			}
			continue
		}
		if cur < 0 {
			continue
		}
		tl := trimSpace(line)
		switch {
		case hasPrefix(tl, "per-node stats"):
			continue // the heading chose the node
		case hasPrefix(tl, "pages free"):
			cur = zone
			tl = tl[len("pages "):]
		case hasPrefix(tl, "protection: ("):
			x.zoneProtection(tl[len("protection: ("):], pt)
			continue
		}
		key, rest := nextField(tl)
		if alias, ok := zoneAlias(string(key)); ok {
			key = []byte(alias)
		}
		col, ok := z.keys[string(key)]
		if !ok {
			continue
		}
		z.vals[cur][col], z.has[cur][col] = parseU64(rest), true
	}
	finish()
	t.end()
	pt.end()
	return nil
}

// zoneProtection records "0, 3018, 6730)" for the current zone.
func (x *Linux) zoneProtection(b []byte, pt *indomTable) {
	z := &x.zones
	base := len(z.name)
	for i := 0; len(b) > 0; i++ {
		v := parseU64(b)
		z.name = append(z.name[:base], "::lowmem_reserved"...)
		z.name = strconv.AppendInt(z.name, int64(i), 10)
		id := pt.add(z.name)
		for int(id) >= len(z.prot) {
			z.prot = append(z.prot, 0)
			z.protOK = append(z.protOK, false)
		}
		z.prot[id], z.protOK[id] = v, true
		c := bytes.IndexByte(b, ',')
		if c < 0 {
			break
		}
		b = b[c+1:]
	}
	z.name = z.name[:base]
}
