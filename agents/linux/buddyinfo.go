package linux

import "strconv"

// buddyData is /proc/buddyinfo: free blocks per node, zone and order.
type buddyData struct {
	pages []uint64 // by instance number
	order []uint8
	seen  []bool
	name  []byte
}

func (x *Linux) bindBuddyinfo() {
	bd := &x.buddy
	x.sources[srcBuddyinfo] = x.readBuddyinfo
	get := func(inst int32) (int, bool) {
		return int(inst), inst >= 0 && int(inst) < len(bd.pages) && bd.seen[inst]
	}
	x.bind("mem.buddyinfo.pages", srcBuddyinfo, func(inst int32) (pcpAtom, error) {
		i, ok := get(inst)
		if !ok {
			return pcpAtom{}, noInst
		}
		return u64(bd.pages[i]), nil
	})
	x.bind("mem.buddyinfo.total", srcBuddyinfo, func(inst int32) (pcpAtom, error) {
		i, ok := get(inst)
		if !ok {
			return pcpAtom{}, noInst
		}
		return u64(bd.pages[i] << bd.order[i] * x.pageSize / 1024), nil
	})
}

// readBuddyinfo parses "Node 0, zone   Normal  n0 n1 ..." lines into
// "ZONE::orderK::nodeN" instances.
func (x *Linux) readBuddyinfo() error {
	b, err := x.readProc("buddyinfo")
	if err != nil {
		return err
	}
	bd := &x.buddy
	clear(bd.seen)
	t := &x.indoms[buddyInDom]
	t.begin()
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		x.fields = fields(line, x.fields)
		f := x.fields
		if len(f) < 5 || string(f[0]) != "Node" || string(f[2]) != "zone" {
			continue
		}
		node := f[1]
		if node[len(node)-1] == ',' {
			node = node[:len(node)-1]
		}
		zone := f[3]
		for k, v := range f[4:] {
			bd.name = append(append(bd.name[:0], zone...), "::order"...)
			bd.name = strconv.AppendInt(bd.name, int64(k), 10)
			bd.name = append(append(bd.name, "::node"...), node...)
			id := t.add(bd.name)
			for int(id) >= len(bd.pages) {
				bd.pages = append(bd.pages, 0)
				bd.order = append(bd.order, 0)
				bd.seen = append(bd.seen, false)
			}
			bd.pages[id], bd.order[id], bd.seen[id] = parseU64(v), uint8(k), true
		}
	}
	t.end()
	return nil
}
