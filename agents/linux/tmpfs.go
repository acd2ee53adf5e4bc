package linux

import "syscall"

// bindTmpfs binds the tmpfs mounts, named by mount point, and their
// statfs figures.
func (x *Linux) bindTmpfs() {
	c := &x.conns
	x.sources[srcTmpfs] = x.readTmpfs
	stat := func(name string, f func(s *syscall.Statfs_t) pcpAtom) {
		x.bind("tmpfs."+name, srcTmpfs, func(inst int32) (pcpAtom, error) {
			if inst < 0 || int(inst) >= len(c.tmpfs) || !c.tmpfs[inst].present || !c.tmpfs[inst].statOK {
				return pcpAtom{}, noInst
			}
			return f(&c.tmpfs[inst].st), nil
		})
	}
	kb := func(blocks uint64, s *syscall.Statfs_t) uint64 { return blocks * uint64(s.Bsize) / 1024 }
	stat("capacity", func(s *syscall.Statfs_t) pcpAtom { return u64(kb(s.Blocks, s)) })
	stat("used", func(s *syscall.Statfs_t) pcpAtom { return u64(kb(s.Blocks-s.Bfree, s)) })
	stat("free", func(s *syscall.Statfs_t) pcpAtom { return u64(kb(s.Bfree, s)) })
	stat("maxfiles", func(s *syscall.Statfs_t) pcpAtom { return u32(s.Files) })
	stat("usedfiles", func(s *syscall.Statfs_t) pcpAtom { return u32(s.Files - s.Ffree) })
	stat("freefiles", func(s *syscall.Statfs_t) pcpAtom { return u32(s.Ffree) })
	stat("full", func(s *syscall.Statfs_t) pcpAtom {
		used := s.Blocks - s.Bfree
		return f64(100 * float64(used) / float64(used+s.Bavail))
	})
}

// readTmpfs lists tmpfs mounts, named by mount point.
func (x *Linux) readTmpfs() error {
	c := &x.conns
	b, err := x.readMounts()
	if err != nil {
		return err
	}
	for i := range c.tmpfs {
		c.tmpfs[i].present = false
	}
	t := &x.indoms[tmpfsInDom]
	t.begin()
	defer t.end()
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		x.fields = fields(line, x.fields)
		f := x.fields
		if len(f) < 3 || string(f[2]) != "tmpfs" {
			continue
		}
		path := unescapeMount(f[1])
		dup := false
		for _, in := range t.scratch {
			if in.Name == string(path) {
				dup = true
			}
		}
		if dup {
			continue
		}
		id := t.add(path)
		for int(id) >= len(c.tmpfs) {
			c.tmpfs = append(c.tmpfs, mount{})
		}
		m := &c.tmpfs[id]
		m.present = true
		m.path = keepString(m.path, path)
		m.statOK = x.pc.statfs(m.path, &m.st) == nil
	}
	return nil
}
