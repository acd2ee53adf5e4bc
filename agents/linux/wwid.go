package linux

import (
	"github.com/gopcp/gopcp/pmda"
	"strings"
)

// disk.wwid: multipath devices by WWID, each the sum of the disks (paths)
// that report that WWID in sysfs, as PCP's agent aggregates them.

// The multipath instance domain, and the PMIDs that need WWIDs looked up:
// the disk.wwid cluster and hinv.map.scsi_id.
const (
	wwidInDom   = 42
	wwidCluster = 92
	scsiIDItem  = 103
)

// wwidQuirks are the sums PCP's agent keeps in 32 bits although the
// metrics are 64-bit, and the one it takes from the last path only.
func wwidWrap32(name string) bool {
	switch name {
	case "discard", "blkdiscard", "discard_merge", "flush":
		return true
	}
	return false
}

func wwidLast(name string) bool { return name == "discard_bytes" }

func (x *Linux) bindWWID() {
	dd := &x.disks
	// paths calls f for each disk that is a path to instance inst.
	paths := func(inst int32, f func(d *diskStat)) bool {
		name, ok := x.instName(wwidInDom, inst)
		if !ok {
			return false
		}
		for _, in := range x.indoms[diskInDom].list() {
			if d := dd.get(kindDisk, in.ID); d != nil && d.wwid == name {
				f(d)
			}
		}
		return true
	}
	for _, field := range diskFields {
		name, val := field.name, field.val
		x.bindKnown("disk.wwid."+name, srcDiskstats, func(inst int32) (pcpAtom, error) {
			var sum uint64
			if !paths(inst, func(d *diskStat) {
				switch {
				case wwidLast(name):
					sum = uint64(uint32(val(d)))
				case wwidWrap32(name):
					sum = uint64(uint32(sum + val(d)))
				default:
					sum += val(d)
				}
			}) {
				return pcpAtom{}, noInst
			}
			return u64(sum), nil
		})
	}
	// Like PCP's agent, a WWID's capacity does not itself make the refresh
	// read /proc/partitions: it has a value when fetched with another
	// capacity metric, which does.
	x.bind("disk.wwid.capacity", srcDiskstats, func(inst int32) (pcpAtom, error) {
		var sum uint64
		missing := false
		if !paths(inst, func(d *diskStat) {
			missing = missing || d.capacity == 0
			sum += d.capacity
		}) {
			return pcpAtom{}, noInst
		}
		if missing {
			return pcpAtom{}, pmda.ErrNoValue
		}
		return u64(sum), nil
	})
	x.bindNeeding("disk.wwid.scheduler", srcDiskstats, needScheduler, func(inst int32) (pcpAtom, error) {
		s, found := "", false
		if !paths(inst, func(d *diskStat) { s, found = d.scheduler, true }) {
			return pcpAtom{}, noInst
		}
		if !found {
			return pcpAtom{}, pmda.ErrNoValue
		}
		return str(s), nil
	})
	x.bind("disk.wwid.scsi_paths", srcDiskstats, func(inst int32) (pcpAtom, error) {
		var names []string
		if !paths(inst, func(d *diskStat) { names = append(names, d.kernelName) }) {
			return pcpAtom{}, noInst
		}
		if len(names) == 0 {
			return pcpAtom{}, pmda.ErrNoValue
		}
		return str(strings.Join(names, " ")), nil
	})
}

// instName is the name of instance inst of an instance domain.
func (x *Linux) instName(serial int, inst int32) (string, bool) {
	for _, in := range x.indoms[serial].list() {
		if in.ID == inst {
			return in.Name, true
		}
	}
	return "", false
}
