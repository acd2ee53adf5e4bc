package proc

import (
	"bufio"
	"os"
	"os/user"
	"strconv"
	"strings"
	"syscall"
)

// maxNames bounds each of nameCache's maps; ids past it are looked up
// each time.
const maxNames = 1 << 16

// nameCache keeps user and group names by id, looked up once each, as
// PCP's agent keeps them; an id without a name is the empty string.
type nameCache struct {
	users, groups map[uint32]string
}

func (p *Proc) userName(uid uint32) string {
	if n, ok := p.names.users[uid]; ok {
		return n
	}
	if p.names.users == nil {
		p.names.users = make(map[uint32]string)
	}
	n := ""
	if u, err := user.LookupId(strconv.FormatUint(uint64(uid), 10)); err == nil {
		n = u.Username
	}
	if len(p.names.users) < maxNames {
		p.names.users[uid] = n
	}
	return n
}

func (p *Proc) groupName(gid uint32) string {
	if n, ok := p.names.groups[gid]; ok {
		return n
	}
	if p.names.groups == nil {
		p.names.groups = make(map[uint32]string)
	}
	n := ""
	if g, err := user.LookupGroupId(strconv.FormatUint(uint64(gid), 10)); err == nil {
		n = g.Name
	}
	if len(p.names.groups) < maxNames {
		p.names.groups[gid] = n
	}
	return n
}

// ttyDriver is one line of /proc/tty/drivers.
type ttyDriver struct {
	path          string
	major         uint32
	minor, range_ uint32
}

// ttyTable names terminals by device number as PCP's agent does: by the
// kernel's driver table first, then by a device of that number under
// /dev/pts or /dev, else "?".
type ttyTable struct {
	drivers []ttyDriver
	byDev   map[uint32]string
}

// load reads root/proc/tty/drivers, stopping at a malformed line as
// PCP's agent does.
func (t *ttyTable) load(root string) {
	f, err := os.Open(root + "/proc/tty/drivers")
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(t.drivers) < 4096 {
		w := strings.Fields(sc.Text())
		if len(w) < 5 {
			break
		}
		maj, err := strconv.ParseUint(w[2], 10, 32)
		if err != nil {
			break
		}
		d := ttyDriver{path: strings.TrimPrefix(w[1], "/dev/"), major: uint32(maj)}
		lo, hi, isRange := strings.Cut(w[3], "-")
		v, _ := strconv.ParseUint(lo, 10, 32)
		d.minor, d.range_ = uint32(v), uint32(v)
		if isRange {
			v, _ = strconv.ParseUint(hi, 10, 32)
			d.range_ = uint32(v)
		}
		t.drivers = append(t.drivers, d)
	}
}

// ttyName names the terminal of device number dev (stat's tty_nr).
func (p *Proc) ttyName(dev uint32) string {
	if dev == 0 {
		return "?"
	}
	t := &p.ttys
	if n, ok := t.byDev[dev]; ok {
		return n
	}
	major := (dev >> 8) & 0xfff
	minor := (dev & 0xff) | ((dev >> 12) & 0xfff00)
	name := "?"
	for _, d := range t.drivers {
		if d.major != major {
			continue
		}
		if minor == d.minor && minor == d.range_ {
			name = d.path
		} else if minor >= d.minor && minor <= d.range_ {
			name = d.path + "/" + strconv.FormatUint(uint64(minor), 10)
		}
		break
	}
	if name == "?" {
		name = devName(dev, "/dev/pts")
	}
	if name == "?" {
		name = devName(dev, "/dev")
	}
	if t.byDev == nil {
		t.byDev = make(map[uint32]string)
	}
	if len(t.byDev) < 1<<16 {
		t.byDev[dev] = name
	}
	return name
}

// devName finds a character device of number dev in dir.
func devName(dev uint32, dir string) string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "?"
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		full := dir + "/" + e.Name()
		var st syscall.Stat_t
		if syscall.Stat(full, &st) != nil {
			continue
		}
		if st.Mode&syscall.S_IFMT == syscall.S_IFCHR && uint64(st.Rdev) == encodeDev(dev) {
			return full[len("/dev/"):]
		}
	}
	return "?"
}

// encodeDev turns the kernel's 32-bit tty_nr into glibc's dev_t.
func encodeDev(dev uint32) uint64 {
	major := uint64((dev >> 8) & 0xfff)
	minor := uint64((dev & 0xff) | ((dev >> 12) & 0xfff00))
	return (minor & 0xff) | ((major & 0xfff) << 8) | ((minor &^ 0xff) << 12) | ((major &^ 0xfff) << 32)
}
