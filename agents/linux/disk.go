package linux

import (
	"bytes"
	"github.com/gopcp/gopcp/pmda"
	"strings"
)

// diskStat is one line of /proc/diskstats.
type diskStat struct {
	rdIOs, rdMerges, rdSectors, rdTicks uint64
	wrIOs, wrMerges, wrSectors, wrTicks uint64
	inflight, ioTicks, aveq             uint64
	dsIOs, dsMerges, dsSectors, dsTicks uint64
	flIOs, flTicks                      uint64
	capacity                            uint64 // Kbytes, from sysfs
	scheduler                           string
	kernelName                          string // dm-0 for a mapping named by its instance
	scsiID                              string
	wwid                                string // scsiID as the last refresh found it
	kind                                diskKind
	present                             bool
	// zram devices' io_stat (4), mm_stat (8) and bd_stat (3) figures,
	// each group with whether its file was read.
	zio  [4]uint64
	zmm  [8]uint64
	zbd  [3]uint64
	zhas [3]bool
}

type diskKind uint8

const (
	kindOther diskKind = iota
	kindDisk
	kindPartition
	kindDM
	kindMD
	kindZram
)

// diskData is /proc/diskstats by device, indexed by each instance
// domain's numbers.
type diskData struct {
	byKind [kindZram + 1][]diskStat
	dmName []byte
	id     []byte
	// needWWID: the fetch asks for disk.wwid or hinv.map.scsi_id;
	// needScheduler and needZramStats: for a metric made from a disk's
	// queue/scheduler or a zram device's statistics files.
	needWWID      bool
	needScheduler bool
	needZramStats bool
	sysBuf        fileBuf
	path          []byte
}

// diskFields are the per-device metrics: name suffix and value.
var diskFields = []struct {
	name string
	val  func(d *diskStat) uint64
}{
	{"read", func(d *diskStat) uint64 { return d.rdIOs }},
	{"write", func(d *diskStat) uint64 { return d.wrIOs }},
	{"total", func(d *diskStat) uint64 { return d.rdIOs + d.wrIOs }},
	{"blkread", func(d *diskStat) uint64 { return d.rdSectors }},
	{"blkwrite", func(d *diskStat) uint64 { return d.wrSectors }},
	{"blktotal", func(d *diskStat) uint64 { return d.rdSectors + d.wrSectors }},
	{"read_bytes", func(d *diskStat) uint64 { return d.rdSectors / 2 }},
	{"write_bytes", func(d *diskStat) uint64 { return d.wrSectors / 2 }},
	{"total_bytes", func(d *diskStat) uint64 { return (d.rdSectors + d.wrSectors) / 2 }},
	{"read_merge", func(d *diskStat) uint64 { return d.rdMerges }},
	{"write_merge", func(d *diskStat) uint64 { return d.wrMerges }},
	{"avactive", func(d *diskStat) uint64 { return d.ioTicks }},
	{"aveq", func(d *diskStat) uint64 { return d.aveq }},
	{"read_rawactive", func(d *diskStat) uint64 { return d.rdTicks }},
	{"write_rawactive", func(d *diskStat) uint64 { return d.wrTicks }},
	{"total_rawactive", func(d *diskStat) uint64 { return d.rdTicks + d.wrTicks }},
	{"discard", func(d *diskStat) uint64 { return d.dsIOs }},
	{"blkdiscard", func(d *diskStat) uint64 { return d.dsSectors }},
	{"discard_bytes", func(d *diskStat) uint64 { return d.dsSectors / 2 }},
	{"discard_merge", func(d *diskStat) uint64 { return d.dsMerges }},
	{"discard_rawactive", func(d *diskStat) uint64 { return d.dsTicks }},
	{"flush", func(d *diskStat) uint64 { return d.flIOs }},
	{"flush_rawactive", func(d *diskStat) uint64 { return d.flTicks }},
	{"inflight", func(d *diskStat) uint64 { return d.inflight }},
}

// diskFamilies are the instance domains /proc/diskstats feeds.
var diskFamilies = []struct {
	prefix string
	kind   diskKind
	indom  int
}{
	{"disk.dev.", kindDisk, diskInDom},
	{"disk.partitions.", kindPartition, partitionsInDom},
	{"disk.dm.", kindDM, dmInDom},
	{"disk.md.", kindMD, mdInDom},
	{"zram.", kindZram, zramInDom},
}

func (x *Linux) bindDisks() {
	dd := &x.disks
	x.sources[srcDiskstats] = x.readDiskstats
	x.sources[srcPartitions] = x.readPartitions
	for _, fam := range diskFamilies {
		kind := fam.kind
		for _, f := range diskFields {
			val := f.val
			x.bindKnown(fam.prefix+f.name, srcDiskstats, func(inst int32) (pcpAtom, error) {
				d := dd.get(kind, inst)
				if d == nil {
					return pcpAtom{}, noInst
				}
				return u64(val(d)), nil
			})
		}
		x.bindKnown(fam.prefix+"capacity", srcPartitions, func(inst int32) (pcpAtom, error) {
			d := dd.get(kind, inst)
			if d == nil {
				return pcpAtom{}, noInst
			}
			if d.capacity == 0 && kind != kindZram {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return u64(d.capacity), nil
		})
	}
	for _, f := range diskFields {
		if f.name == "inflight" {
			continue // summed below as PCP does, over disks only
		}
		val := f.val
		x.bindKnown("disk.all."+f.name, srcDiskstats, func(int32) (pcpAtom, error) {
			var sum uint64
			for i := range dd.byKind[kindDisk] {
				if d := &dd.byKind[kindDisk][i]; d.present {
					sum += val(d)
				}
			}
			return u64(sum), nil
		})
	}
	x.bind("disk.all.inflight", srcDiskstats, func(int32) (pcpAtom, error) {
		var sum uint64
		for i := range dd.byKind[kindDisk] {
			if d := &dd.byKind[kindDisk][i]; d.present {
				sum += d.inflight
			}
		}
		return u64(sum), nil
	})
	x.bindNeeding("disk.dev.scheduler", srcDiskstats, needScheduler, func(inst int32) (pcpAtom, error) {
		d := dd.get(kindDisk, inst)
		if d == nil {
			return pcpAtom{}, noInst
		}
		return str(d.scheduler), nil
	})
	x.bind("hinv.ndisk", srcDiskstats, func(int32) (pcpAtom, error) {
		return u32(uint64(len(x.indoms[diskInDom].list()))), nil
	})
	x.bind("hinv.map.scsi_id", srcDiskstats, func(inst int32) (pcpAtom, error) {
		d := dd.get(kindDisk, inst)
		if d == nil {
			return pcpAtom{}, noInst
		}
		return str(d.wwid), nil
	})
	for _, n := range []struct {
		metric string
		kind   diskKind
		indom  int
	}{{"hinv.map.dmname", kindDM, dmInDom}, {"hinv.map.mdname", kindMD, mdInDom}} {
		// The kernel's name (dm-0) of the device the instance names.
		x.bind(n.metric, srcDiskstats, func(inst int32) (pcpAtom, error) {
			d := dd.get(n.kind, inst)
			if d == nil {
				return pcpAtom{}, noInst
			}
			return str(d.kernelName), nil
		})
	}
}

// get returns the device of kind numbered inst, or nil.
func (dd *diskData) get(kind diskKind, inst int32) *diskStat {
	s := dd.byKind[kind]
	if inst < 0 || int(inst) >= len(s) || !s[inst].present {
		return nil
	}
	return &s[inst]
}

// classify sorts a device name into disk, partition, device-mapper or md
// device, or something PCP leaves out (loop, ram and zram devices, CD
// drives), by the same naming rules PCP's agent uses.
func classify(name []byte) diskKind {
	n := string(name)
	switch {
	case strings.HasPrefix(n, "zram"):
		return kindZram
	case strings.HasPrefix(n, "loop"), strings.HasPrefix(n, "ram"):
		return kindOther
	case strings.HasPrefix(n, "dm-"):
		return kindDM
	case strings.HasPrefix(n, "md"):
		return kindMD
	case len(n) > 2 && strings.HasPrefix(n, "sr") && isDigit(n[2]):
		return kindOther
	case strings.Contains(n, "xvm"):
		return kindOther
	case isPartition(n):
		return kindPartition
	case isWWID(n):
		return kindOther
	}
	return kindDisk
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isPartition: names ending in a digit are partitions, except whole
// drives whose names end in digits by design (mmcblk0, nvme0n1, rbd0,
// nbd0, where a partition adds "p" and a number).
func isPartition(n string) bool {
	if n == "" || !isDigit(n[len(n)-1]) {
		return false
	}
	for _, pre := range []string{"mmcblk", "nvme", "rbd", "nbd"} {
		if strings.HasPrefix(n, pre) {
			return strings.IndexByte(n[len(pre):], 'p') >= 0
		}
	}
	return true
}

// isWWID recognises a multipath WWID used as a device name.
func isWWID(n string) bool {
	return len(n) == 18 && (n[0] == '1' || n[0] == '2' || n[0] == '3')
}

// readDiskstats parses /proc/diskstats and lists the disk, partition,
// device-mapper and md instance domains; sizes and schedulers come from
// /sys/block.
func (x *Linux) readDiskstats() error {
	b, err := x.readProc("diskstats")
	if err != nil {
		return err
	}
	dd := &x.disks
	for k := range dd.byKind {
		for i := range dd.byKind[k] {
			dd.byKind[k][i].present = false
		}
	}
	for _, fam := range diskFamilies {
		x.indoms[fam.indom].begin()
	}
	// WWIDs cost two sysfs reads per disk; they are looked up only when
	// the fetch asks for multipath figures or SCSI identifiers (and at
	// start), and the multipath listing is kept otherwise.
	w := &x.indoms[wwidInDom]
	wwids := dd.needWWID
	if wwids {
		w.begin()
	}
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		x.fields = fields(line, x.fields)
		f := x.fields
		if len(f) < 14 {
			continue
		}
		name := f[2]
		kind := classify(name)
		if kind == kindOther {
			if wwids && isWWID(string(name)) {
				w.add(name) // a device named by its WWID
			}
			continue
		}
		instName := name
		if kind == kindDM {
			// A mapping without a name is left out, as PCP leaves it.
			var ok bool
			if instName, ok = x.dmName(name); !ok {
				continue
			}
		}
		var t *indomTable
		switch kind {
		case kindDisk:
			t = &x.indoms[diskInDom]
		case kindPartition:
			t = &x.indoms[partitionsInDom]
		case kindDM:
			t = &x.indoms[dmInDom]
		case kindZram:
			t = &x.indoms[zramInDom]
		default:
			t = &x.indoms[mdInDom]
		}
		id := t.add(instName)
		for int(id) >= len(dd.byKind[kind]) {
			dd.byKind[kind] = append(dd.byKind[kind], diskStat{})
		}
		d := &dd.byKind[kind][id]
		vals := [17]uint64{}
		for i := 3; i < len(f) && i-3 < len(vals); i++ {
			vals[i-3] = parseU64(f[i])
		}
		d.rdIOs, d.rdMerges, d.rdSectors, d.rdTicks = vals[0], vals[1], vals[2], vals[3]
		d.wrIOs, d.wrMerges, d.wrSectors, d.wrTicks = vals[4], vals[5], vals[6], vals[7]
		d.inflight, d.ioTicks, d.aveq = vals[8], vals[9], vals[10]
		d.dsIOs, d.dsMerges, d.dsSectors, d.dsTicks = vals[11], vals[12], vals[13], vals[14]
		d.flIOs, d.flTicks = vals[15], vals[16]
		d.kind, d.present = kind, true
		d.kernelName = keepString(d.kernelName, name)
		if kind == kindDisk && !wwids && d.wwid == "" {
			d.wwid = "unknown" // a disk first seen when WWIDs were not wanted
		}
		d.capacity = 0 // from /proc/partitions, when a capacity is asked for
		if kind == kindDisk {
			if dd.needScheduler {
				d.scheduler = x.scheduler(name, d.scheduler)
			}
			// A disk with a WWID makes (or joins) a multipath instance.
			if wwids {
				if d.wwid = x.scsiID(d); d.wwid != "unknown" && !listed(w, d.wwid) {
					w.add([]byte(d.wwid))
				}
			}
		}
		if kind == kindZram && dd.needZramStats {
			x.zramStats(name, d)
		}
	}
	for _, fam := range diskFamilies {
		x.indoms[fam.indom].end()
	}
	if wwids {
		w.end()
	}
	return nil
}

// listed reports whether name is in t's listing in progress.
func listed(t *indomTable, name string) bool {
	for _, in := range t.scratch {
		if in.Name == name {
			return true
		}
	}
	return false
}

// sysBlock reads /sys/block/NAME/rel (or /sys/class/block for a
// partition) into the disk buffer.
func (x *Linux) sysBlock(name []byte, partition bool, rel string) ([]byte, error) {
	dd := &x.disks
	dir := "block/"
	if partition {
		dir = "class/block/"
	}
	dd.path = append(append(append(append(append(dd.path[:0], x.sys...), '/'), dir...), name...), '/')
	dd.path = append(dd.path, rel...)
	return dd.sysBuf.readBytes(dd.path)
}

// readPartitions takes device sizes (Kbytes) from /proc/partitions, as
// PCP's agent does for the capacity metrics; a zram device's size comes
// from its sysfs disksize instead. The refresh reads /proc/diskstats
// first, so the devices are known.
func (x *Linux) readPartitions() error {
	dd := &x.disks
	b, err := x.readProc("partitions")
	if err == nil {
		for len(b) > 0 {
			var line []byte
			line, b = nextLine(b)
			x.fields = fields(line, x.fields)
			f := x.fields
			if len(f) < 4 || !isDigit(f[0][0]) {
				continue
			}
			name := f[3]
			kind := classify(name)
			switch kind {
			case kindOther:
				continue
			case kindDM:
				var ok bool
				if name, ok = x.dmName(name); !ok {
					continue
				}
			}
			if d := dd.byName(x, kind, name); d != nil {
				d.capacity = parseU64(f[2])
			}
		}
	}
	for _, in := range x.indoms[zramInDom].list() {
		if d := dd.get(kindZram, in.ID); d != nil {
			if v, err := x.sysBlock([]byte(in.Name), false, "disksize"); err == nil {
				d.capacity = parseU64(v) >> 10
			}
		}
	}
	return nil
}

// kindInDom is each kind of device's instance domain.
var kindInDom = [...]int{kindDisk: diskInDom, kindPartition: partitionsInDom, kindDM: dmInDom,
	kindMD: mdInDom, kindZram: zramInDom}

// byName finds the device of kind called name.
func (dd *diskData) byName(x *Linux, kind diskKind, name []byte) *diskStat {
	t := &x.indoms[kindInDom[kind]]
	t.use()
	e, ok := t.ids[string(name)]
	if !ok {
		return nil
	}
	return dd.get(kind, e.id)
}

// scheduler is the I/O scheduler a disk uses: the bracketed entry of its
// queue/scheduler file, "none" when it has no choice, "unknown" without
// the file.
func (x *Linux) scheduler(name []byte, old string) string {
	b, err := x.sysBlock(name, false, "queue/scheduler")
	if err != nil {
		return keepString(old, []byte("unknown"))
	}
	b = trimSpace(b)
	for i, c := range b {
		if c == '[' {
			for j := i + 1; j < len(b); j++ {
				if b[j] == ']' {
					return keepString(old, b[i+1:j])
				}
			}
		}
	}
	return keepString(old, b)
}

// dmName is a device-mapper device's name from /sys/block/dm-N/dm/name.
func (x *Linux) dmName(dev []byte) ([]byte, bool) {
	b, err := x.sysBlock(dev, false, "dm/name")
	if err != nil || len(trimSpace(b)) == 0 {
		return dev, false
	}
	x.disks.dmName = append(x.disks.dmName[:0], trimSpace(b)...)
	return x.disks.dmName, true
}

// zramStats reads a zram device's sysfs statistics files.
func (x *Linux) zramStats(name []byte, d *diskStat) {
	for i, f := range []struct {
		file string
		dst  []uint64
	}{{"io_stat", d.zio[:]}, {"mm_stat", d.zmm[:]}, {"bd_stat", d.zbd[:]}} {
		b, err := x.sysBlock(name, false, f.file)
		d.zhas[i] = false
		if err != nil {
			continue
		}
		n := 0
		for n < len(f.dst) {
			var v []byte
			v, b = nextField(b)
			if len(v) == 0 {
				break
			}
			f.dst[n] = parseU64(v)
			n++
		}
		d.zhas[i] = n == len(f.dst)
	}
}

// zramFields are the zram statistics metrics: group (0 io, 1 mm, 2 bd),
// index, and how PCP scales them (bytes or 4 Kbyte pages to Kbytes).
var zramFields = []struct {
	name       string
	group, idx int
	shift      int // >0 shifts left, <0 right
}{
	{"io_stat.failed.reads", 0, 0, 0}, {"io_stat.failed.writes", 0, 1, 0},
	{"io_stat.invalid", 0, 2, 0}, {"io_stat.notify_free", 0, 3, 0},
	{"mm_stat.data_size.original", 1, 0, -10}, {"mm_stat.data_size.compressed", 1, 1, -10},
	{"mm_stat.mem.used_total", 1, 2, -10}, {"mm_stat.mem.limit", 1, 3, -10},
	{"mm_stat.mem.max_used", 1, 4, -10}, {"mm_stat.pages.same", 1, 5, 2},
	{"mm_stat.pages.compacted", 1, 6, 2}, {"mm_stat.pages.huge", 1, 7, 2},
	{"bd_stat.count", 2, 0, 2}, {"bd_stat.reads", 2, 1, 2}, {"bd_stat.writes", 2, 2, 2},
}

func (x *Linux) bindZram() {
	dd := &x.disks
	for _, f := range zramFields {
		x.bindNeeding("zram."+f.name, srcDiskstats, needZramStats, func(inst int32) (pcpAtom, error) {
			d := dd.get(kindZram, inst)
			if d == nil {
				return pcpAtom{}, noInst
			}
			if !d.zhas[f.group] {
				return pcpAtom{}, pmda.ErrNoValue
			}
			var v uint64
			switch f.group {
			case 0:
				v = d.zio[f.idx]
			case 1:
				v = d.zmm[f.idx]
			default:
				v = d.zbd[f.idx]
			}
			if f.shift > 0 {
				v <<= f.shift
			} else {
				v >>= -f.shift
			}
			return u64(v), nil
		})
	}
}

// scsiID is a disk's WWID from sysfs (device/wwid, else wwid), with the
// t10., eui. and naa. prefixes turned into the numeric forms 1, 2 and 3
// as the kernel's VPD identifiers have them; "unknown" without one.
func (x *Linux) scsiID(d *diskStat) string {
	name := []byte(d.kernelName)
	b, err := x.sysBlock(name, false, "device/wwid")
	if err != nil {
		b, err = x.sysBlock(name, false, "wwid")
	}
	if err != nil || len(b) == 0 {
		return "unknown"
	}
	b = b[:len(b)-1] // the kernel's newline, or the last byte, as PCP drops it
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	for i, p := range []string{"t10.", "eui.", "naa."} {
		if hasPrefix(b, p) {
			x.disks.id = append(append(x.disks.id[:0], byte('1'+i)), b[len(p):]...)
			d.scsiID = keepString(d.scsiID, x.disks.id)
			return d.scsiID
		}
	}
	d.scsiID = keepString(d.scsiID, b)
	return d.scsiID
}
