package linux

import (
	"syscall"
)

// mdStatus is disk.md.status for the md device name. PCP's agent reports
// the wait status of "mdadm --detail --test /dev/NAME" (the exit code
// times 256), or -1 when it cannot read the mdadm program. This agent runs
// no program: without mdadm it reports -1 as PCP's does, and with mdadm
// installed it gives the status mdadm's test would, from the array's sysfs
// state: 0 working, 1 degraded (a member failed), 2 not running
// (inactive, cleared or broken), 4 the state unreadable.
func (x *Linux) mdStatus(name string) int32 {
	if syscall.Access(x.mdadm, 4 /* R_OK */) != nil {
		return -1
	}
	exit := int32(0)
	state, err := x.readSys("block/" + name + "/md/array_state")
	switch {
	case err != nil:
		exit = 4
	default:
		switch s, _ := nextField(state); string(s) {
		case "inactive", "clear", "broken":
			exit = 2
		default:
			if d, err := x.readSys("block/" + name + "/md/degraded"); err == nil {
				if f, _ := nextField(d); parseU64(f) > 0 {
					exit = 1
				}
			}
		}
	}
	return exit << 8
}
