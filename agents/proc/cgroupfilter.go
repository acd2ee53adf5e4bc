package proc

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
)

// A cgroup filter (-r, or a client's proc.control.perclient.cgroups)
// restricts the process list to the pids a cgroup file lists, found as
// PCP 6.0.3's agent finds it: the filter is a path (under the stats
// prefix) whose "container/cgroup.procs" lists the processes, or for
// threads its "tasks" on cgroup v1 and "container/cgroup.threads" on v2.

// cgroupsFor is client cs's filter, empty for none.
func (p *Proc) cgroupsFor(cs *clientState) string {
	if cs != nil && cs.cgroupsSet {
		return cs.cgroups
	}
	return p.cgroups
}

// cgroupVersion is 2 when only cgroup2 is mounted, 1 when any cgroup v1
// hierarchy is, 0 with neither, as PCP's agent reads /proc/mounts.
func cgroupVersion(root string) int {
	f, err := os.Open(root + "/proc/mounts")
	if err != nil {
		return 0
	}
	defer f.Close()
	v1, v2 := false, false
	sc := bufio.NewScanner(f)
	for n := 0; sc.Scan() && n < 1<<16; n++ {
		w := strings.Fields(sc.Text())
		if len(w) < 3 {
			continue
		}
		switch w[2] {
		case "cgroup2":
			v2 = true
		case "cgroup":
			v1 = true
		}
	}
	switch {
	case v2 && !v1:
		return 2
	case v1:
		return 1
	}
	return 0
}

// listCgroup lists the pids of the filter's file into pids, ascending; a
// file that cannot be read lists none.
func (r *reader) listCgroup(pids []int32, filter string, threads bool) []int32 {
	pids = pids[:0]
	path := r.root + filter + "/container/cgroup.procs"
	if threads {
		switch cgroupVersion(r.root) {
		case 1:
			path = r.root + filter + "/tasks"
		case 2:
			path = r.root + filter + "/container/cgroup.threads"
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return pids
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(pids) < 1<<22 {
		v, err := strconv.ParseInt(strings.TrimSpace(sc.Text()), 10, 32)
		if err != nil {
			break
		}
		pids = append(pids, int32(v))
	}
	slices.Sort(pids)
	return slices.Compact(pids)
}
