package cgroup

import (
	"strings"

	"github.com/gopcp/gopcp/pmda"
)

// subsys is one /proc/cgroups line.
type subsys struct {
	hierarchy, numCgroups, enabled uint32
}

// filesys is one cgroup mount.
type filesys struct {
	path    string
	options string // v1 mounts only, as pmdaproc keeps them
	version int
}

// refreshSubsys reads /proc/cgroups into the subsys domain
// (refresh_cgroup_subsys).
func (s *Source) refreshSubsys() {
	c := s.caches[InDomSubsys]
	c.DeactivateAll()
	b, err := s.read(s.root + "/proc/cgroups")
	if err != nil {
		return
	}
	pieces(b, 4096, func(line string) bool {
		if strings.HasPrefix(line, "#") {
			return true
		}
		name, i, ok := scanWord(line, 0)
		if !ok {
			return true
		}
		var v [3]uint32
		for k := range v {
			if v[k], i, ok = scanU(line, i); !ok {
				return true
			}
		}
		s.add(InDomSubsys, name, &subsys{hierarchy: v[0], numCgroups: v[1], enabled: v[2]})
		return true
	})
}

// refreshMounts reads /proc/mounts into the mounts domain and decides the
// cgroup version as pmdaproc does: 2 only when there is a cgroup2 mount and
// no cgroup one (refresh_cgroup_filesys).
func (s *Source) refreshMounts() {
	c := s.caches[InDomMounts]
	c.DeactivateAll()
	b, err := s.read(s.root + "/proc/mounts")
	if err != nil {
		return
	}
	v1, v2 := 0, 0
	pieces(b, 4096, func(line string) bool {
		f := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' })
		if len(f) < 3 {
			return true
		}
		path, typ := f[1], f[2]
		options := ""
		if len(f) > 3 {
			options = f[3]
		}
		version := 0
		switch typ {
		case "cgroup2":
			v2++
			version = 2
		case "cgroup":
			v1++
			version = 1
		default:
			return true
		}
		_, state, priv, err := c.LookupName(path)
		if err == nil && state == pmda.CacheActive {
			return true // repeated line
		}
		fs, _ := priv.(*filesys)
		if err != nil || fs == nil {
			fs = &filesys{path: path}
		}
		if version == 1 {
			fs.options = options
		}
		fs.version = version
		s.add(InDomMounts, path, fs)
		return true
	})
	if v2 > 0 && v1 == 0 {
		s.version = 2
	} else {
		s.version = 1
	}
}

// findSubsys is cgroup_find_subsys: the mount's options that name active
// subsystems, joined by commas, or "?".
func (s *Source) findSubsys(fs *filesys) string {
	if fs.options == "" {
		return "?"
	}
	opts := fs.options
	if len(opts) > 255 {
		opts = opts[:255]
	}
	c := s.caches[InDomSubsys]
	var out []string
	for _, o := range strings.Split(opts, ",") {
		if o == "" {
			continue
		}
		if _, state, _, err := c.LookupName(o); err == nil && state == pmda.CacheActive {
			out = append(out, o)
		}
	}
	if len(out) == 0 {
		return "?"
	}
	return strings.Join(out, ",")
}

// hasOption is scan_filesys_options: whether option is one of the mount's.
func hasOption(options, option string) bool {
	if len(options) > 255 {
		options = options[:255]
	}
	for _, o := range strings.Split(options, ",") {
		if o == option && o != "" {
			return true
		}
	}
	return false
}

// refreshDevices maps "major:minor" to disk names from /proc/diskstats,
// leaving out loop and ram devices (refresh_cgroup_device_map).
func (s *Source) refreshDevices() {
	if s.devt == nil {
		s.devt = map[uint64]devName{}
	}
	// The map is kept, its names too while the same: a device's entry is
	// marked with the refresh that saw it, the others removed after.
	s.devtGen++
	gen := s.devtGen
	defer func() {
		for k, d := range s.devt {
			if d.gen != gen {
				delete(s.devt, k)
			}
		}
	}()
	b, err := s.read(s.at(s.root, "/proc/diskstats"))
	if err != nil {
		return
	}
	piecesView(b, 4096, func(line string) bool {
		major, i, ok := scanU(line, 0)
		if !ok {
			return true
		}
		minor, i, ok := scanU(line, i)
		if !ok {
			return true
		}
		name, i, ok := scanWord(line, i)
		if !ok {
			return true
		}
		if _, _, ok := scanU(line, i); !ok {
			return true
		}
		if strings.HasPrefix(name, "loop") || strings.HasPrefix(name, "ram") {
			return true
		}
		k := devKey(major, minor)
		if d, ok := s.devt[k]; ok && d.name == name {
			s.devt[k] = devName{d.name, gen}
		} else {
			s.devt[k] = devName{strings.Clone(name), gen}
		}
		return true
	})
}

// devName is a disk's name in Source.devt, with the refresh that saw it.
type devName struct {
	name string
	gen  uint32
}
