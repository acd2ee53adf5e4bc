package linux

import (
	"encoding/binary"
	"os"
	"regexp"
	"strings"
)

// bindMore binds the smaller families: /proc/sys/fs, network totals,
// login counts, the agent's own identity, serial lines, tape drives,
// SCSI and md device maps.
func (x *Linux) bindMore() {
	x.bindVFS()
	x.bindNetAll()
	x.bindLogin()
	x.bindNFS()
	x.bindTTY()
	x.bindTape()
	x.bindZram()
	x.bindConns()
	x.bindFCHost()
	x.bindExtfrag()
	x.bind("pmda.uname", srcUname, func(int32) (pcpAtom, error) {
		u := &x.uname
		return str(u.pmdaUname), nil
	})
	x.bind("pmda.version", srcStatic, func(int32) (pcpAtom, error) { return str(pcpVersion), nil })
	// PCP's agent asks mdadm for an md device's state; we report none.
	x.bind("disk.md.status", srcDiskstats, func(inst int32) (pcpAtom, error) {
		if x.disks.get(kindMD, inst) == nil {
			return pcpAtom{}, noInst
		}
		return pcpAtom{}, errNoValue
	})
	x.bind("hinv.map.scsi", srcSCSI, func(inst int32) (pcpAtom, error) {
		for _, in := range x.indoms[scsiInDom].list() {
			if in.ID == inst {
				return str(x.scsiDev[inst]), nil
			}
		}
		return pcpAtom{}, noInst
	})
	x.sources[srcSCSI] = x.readSCSI
	x.bind("network.tcp.fastopenactivefail", srcSnmp, x.snmp.getter(x.snmp.slot("TcpExt:TCPFastOpenActiveFail")))
}

// pcpVersion is the PCP release whose agent this one matches.
const pcpVersion = "6.0.3"

// vfsFiles are /proc/sys/fs files and the metrics their numbers feed.
var vfsFiles = []struct {
	file    string
	metrics []string
}{
	{"sys/fs/file-nr", []string{"vfs.files.count", "vfs.files.free", "vfs.files.max"}},
	{"sys/fs/inode-state", []string{"vfs.inodes.count", "vfs.inodes.free"}},
	{"sys/fs/dentry-state", []string{"vfs.dentry.count", "vfs.dentry.free"}},
	{"sys/fs/aio-max-nr", []string{"vfs.aio.max"}},
	{"sys/fs/aio-nr", []string{"vfs.aio.count"}},
}

func (x *Linux) bindVFS() {
	i := 0
	for _, f := range vfsFiles {
		for _, m := range f.metrics {
			slot := i
			x.bind(m, srcVFS, func(int32) (pcpAtom, error) { return i32(x.vfs[slot]), nil })
			i++
		}
	}
	// Files that cannot be read leave zeros, as PCP's agent reports.
	x.sources[srcVFS] = func() error {
		x.vfs = [9]int64{}
		i := 0
		for _, f := range vfsFiles {
			b, err := x.readProc(f.file)
			if err != nil {
				i += len(f.metrics)
				continue
			}
			for range f.metrics {
				var v []byte
				v, b = nextField(b)
				x.vfs[i] = parseI64(v)
				i++
			}
		}
		return nil
	}
}

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

// utmp record layout (glibc, 64-bit and 32-bit alike): 384 bytes, the
// type a 16-bit number at 0 and the user name 32 bytes at 44.
const (
	utmpSize        = 384
	utmpUserOffset  = 44
	utmpUserLen     = 32
	utmpUserProcess = 7
)

func (x *Linux) bindLogin() {
	x.sources[srcLogin] = func() error {
		x.login = [3]uint64{}
		b, err := x.fb.read(x.utmp)
		if err != nil {
			return nil // no utmp: no sessions
		}
		for ; len(b) >= utmpSize; b = b[utmpSize:] {
			if binary.NativeEndian.Uint16(b) == utmpUserProcess {
				user := b[utmpUserOffset : utmpUserOffset+utmpUserLen]
				if user[0] != 0 {
					if n := indexByte(user, 0); string(user[:max(n, 0)]) == "root" || (n < 0 && string(user) == "root") {
						x.login[1]++
					}
					x.login[0]++
				} else {
					continue
				}
			}
			x.login[2]++
		}
		return nil
	}
	for i, n := range []string{"kernel.all.nusers", "kernel.all.nroots", "kernel.all.nsessions"} {
		x.bind(n, srcLogin, func(int32) (pcpAtom, error) { return u32(x.login[i]), nil })
	}
}

func indexByte(b []byte, c byte) int {
	for i, v := range b {
		if v == c {
			return i
		}
	}
	return -1
}
