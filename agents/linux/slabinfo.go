package linux

// slabCache is one line of /proc/slabinfo (version 2.x).
type slabCache struct {
	activeObjs, totalObjs, objSize, objPerSlab, pagesPerSlab uint64
	activeSlabs, totalSlabs                                  uint64
	present                                                  bool
}

type slabData struct {
	caches []slabCache // by instance number
}

func (x *Linux) bindSlabinfo() {
	sd := &x.slabs
	x.sources[srcSlabinfo] = x.readSlabinfo
	one := func(name string, f func(c *slabCache) uint64) {
		x.bind("mem.slabinfo."+name, srcSlabinfo, func(inst int32) (pcpAtom, error) {
			if inst < 0 || int(inst) >= len(sd.caches) || !sd.caches[inst].present {
				return pcpAtom{}, noInst
			}
			return u64(f(&sd.caches[inst])), nil
		})
	}
	one("objects.active", func(c *slabCache) uint64 { return c.activeObjs })
	one("objects.total", func(c *slabCache) uint64 { return c.totalObjs })
	one("objects.size", func(c *slabCache) uint64 { return c.objSize })
	one("slabs.active", func(c *slabCache) uint64 { return c.activeSlabs })
	one("slabs.total", func(c *slabCache) uint64 { return c.totalSlabs })
	one("slabs.pages_per_slab", func(c *slabCache) uint64 { return c.pagesPerSlab })
	one("slabs.objects_per_slab", func(c *slabCache) uint64 { return c.objPerSlab })
	one("slabs.total_size", func(c *slabCache) uint64 {
		if c.objPerSlab == 0 {
			return 0
		}
		return c.pagesPerSlab * c.activeObjs * x.pageSize / c.objPerSlab
	})
}

// readSlabinfo parses /proc/slabinfo, which only root may read.
func (x *Linux) readSlabinfo() error {
	b, err := x.readProc("slabinfo")
	if err != nil {
		return err
	}
	sd := &x.slabs
	for i := range sd.caches {
		sd.caches[i].present = false
	}
	t := &x.indoms[slabInDom]
	t.begin()
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		if hasPrefix(line, "slabinfo") || hasPrefix(line, "#") {
			continue
		}
		x.fields = fields(line, x.fields)
		f := x.fields
		// name active num size perslab pages : tunables l b s : slabdata active num shared
		if len(f) < 15 || string(f[6]) != ":" || string(f[11]) != ":" {
			continue
		}
		id := t.add(f[0])
		for int(id) >= len(sd.caches) {
			sd.caches = append(sd.caches, slabCache{})
		}
		c := &sd.caches[id]
		c.activeObjs, c.totalObjs, c.objSize = parseU64(f[1]), parseU64(f[2]), parseU64(f[3])
		c.objPerSlab, c.pagesPerSlab = parseU64(f[4]), parseU64(f[5])
		c.activeSlabs, c.totalSlabs = parseU64(f[13]), parseU64(f[14])
		c.present = true
	}
	t.end()
	return nil
}
