package linux

import (
	"path/filepath"
	"strings"
	"syscall"
)

// mount is one mounted filesystem of the filesys instance domain.
type mount struct {
	path     string
	options  string
	st       syscall.Statfs_t
	statOK   bool
	present  bool
	resolved bool
}

type filesysData struct {
	mounts   []mount           // by instance number
	realpath map[string][]byte // device -> resolved device
}

// skippedFS says whether a filesystem type is not storage. (A switch,
// not a map: a map literal is built at package init, which every tool
// linking the agent for -L would pay; see labels.go.)
func skippedFS(typ string) bool {
	switch typ {
	case "proc", "nfs", "devfs", "devpts", "devtmpfs", "squashfs", "selinuxfs",
		"securityfs", "configfs", "cgroup", "sysfs":
		return true
	}
	return false
}

func (x *Linux) bindFilesys() {
	fd := &x.filesys
	x.sources[srcFilesys] = x.readFilesys
	get := func(inst int32) *mount {
		if inst < 0 || int(inst) >= len(fd.mounts) || !fd.mounts[inst].present {
			return nil
		}
		return &fd.mounts[inst]
	}
	stat := func(name string, f func(m *mount, s *syscall.Statfs_t) pcpAtom) {
		x.bind("filesys."+name, srcFilesys, func(inst int32) (pcpAtom, error) {
			m := get(inst)
			if m == nil || !m.statOK {
				return pcpAtom{}, noInst
			}
			return f(m, &m.st), nil
		})
	}
	kb := func(blocks uint64, s *syscall.Statfs_t) uint64 { return blocks * uint64(s.Bsize) / 1024 }
	stat("capacity", func(_ *mount, s *syscall.Statfs_t) pcpAtom { return u64(kb(s.Blocks, s)) })
	stat("used", func(_ *mount, s *syscall.Statfs_t) pcpAtom { return u64(kb(s.Blocks-s.Bfree, s)) })
	stat("free", func(_ *mount, s *syscall.Statfs_t) pcpAtom { return u64(kb(s.Bfree, s)) })
	stat("avail", func(_ *mount, s *syscall.Statfs_t) pcpAtom { return u64(kb(s.Bavail, s)) })
	stat("maxfiles", func(_ *mount, s *syscall.Statfs_t) pcpAtom { return u32(s.Files) })
	stat("usedfiles", func(_ *mount, s *syscall.Statfs_t) pcpAtom { return u32(s.Files - s.Ffree) })
	stat("freefiles", func(_ *mount, s *syscall.Statfs_t) pcpAtom { return u32(s.Ffree) })
	stat("blocksize", func(_ *mount, s *syscall.Statfs_t) pcpAtom { return u32(uint64(s.Bsize)) })
	stat("mountdir", func(m *mount, _ *syscall.Statfs_t) pcpAtom { return str(m.path) })
	stat("full", func(_ *mount, s *syscall.Statfs_t) pcpAtom {
		used := s.Blocks - s.Bfree
		return f64(100 * float64(used) / float64(used+s.Bavail))
	})
	stat("readonly", func(m *mount, _ *syscall.Statfs_t) pcpAtom {
		for o := range strings.SplitSeq(m.options, ",") {
			if o == "ro" {
				return u32(1)
			}
		}
		return u32(0)
	})
	x.bind("hinv.nfilesys", srcFilesys, func(int32) (pcpAtom, error) {
		return u32(uint64(len(x.indoms[filesysInDom].list()))), nil
	})
}

// readFilesys lists mounted block-device filesystems from /proc/self/mounts
// (named by their resolved device, as PCP names them) and asks statfs of
// each.
func (x *Linux) readFilesys() error {
	b, err := x.readMounts()
	if err != nil {
		return err
	}
	fd := &x.filesys
	for i := range fd.mounts {
		fd.mounts[i].present = false
	}
	t := &x.indoms[filesysInDom]
	t.begin()
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		x.fields = fields(line, x.fields)
		f := x.fields
		if len(f) < 4 {
			continue
		}
		dev, path, typ, opts := f[0], f[1], f[2], f[3]
		if skippedFS(string(typ)) || hasPrefix(typ, "auto") || string(typ) == "tmpfs" {
			continue
		}
		if !hasPrefix(dev, "/dev") && string(path) != "/" {
			continue
		}
		dev = x.resolveDevice(dev)
		dup := false
		for _, in := range t.scratch {
			if in.Name == string(dev) {
				dup = true
				break
			}
		}
		if dup {
			continue // a device mounted twice counts once, at its first path
		}
		id := t.add(dev)
		for int(id) >= len(fd.mounts) {
			fd.mounts = append(fd.mounts, mount{})
		}
		m := &fd.mounts[id]
		m.present = true
		m.path = keepString(m.path, unescapeMount(path))
		m.options = keepString(m.options, opts)
		m.statOK = x.pc.statfs(m.path, &m.st) == nil
	}
	t.end()
	return nil
}

// resolveDevice follows symbolic links in a device path (not for
// device-mapper and md names, which PCP keeps as they are), remembering
// each answer.
func (x *Linux) resolveDevice(dev []byte) []byte {
	if hasPrefix(dev, "/dev/mapper") || hasPrefix(dev, "/dev/md") {
		return dev
	}
	fd := &x.filesys
	if fd.realpath == nil {
		fd.realpath = make(map[string][]byte)
	}
	if r, ok := fd.realpath[string(dev)]; ok {
		return r // kept as bytes: callers only read it
	}
	r, err := filepath.EvalSymlinks(string(dev))
	if err != nil {
		r = string(dev)
	}
	fd.realpath[string(dev)] = []byte(r)
	return []byte(r)
}

// unescapeMount undoes the octal escapes (\040 for a space) of mount paths.
func unescapeMount(p []byte) []byte {
	for i := 0; i+3 < len(p); i++ {
		if p[i] == '\\' {
			out := make([]byte, 0, len(p))
			for j := 0; j < len(p); j++ {
				if p[j] == '\\' && j+3 < len(p) {
					out = append(out, (p[j+1]-'0')<<6|(p[j+2]-'0')<<3|(p[j+3]-'0'))
					j += 3
					continue
				}
				out = append(out, p[j])
			}
			return out
		}
	}
	return p
}

// mountsText is /proc/self/mounts as one refresh read it.
type mountsText struct {
	buf     []byte
	err     error
	read    bool
	refresh uint64
}

// readMounts reads /proc/self/mounts once a refresh for the two sources
// that list mounts, filesystems and tmpfs: the kernel writes the file
// afresh at each read, which costs more than keeping a copy.
func (x *Linux) readMounts() ([]byte, error) {
	m := &x.mounts
	if !m.read || m.refresh != x.refreshes {
		b, err := x.readProc("self/mounts")
		m.buf = append(m.buf[:0], b...)
		m.err, m.read, m.refresh = err, true, x.refreshes
	}
	return m.buf, m.err
}
