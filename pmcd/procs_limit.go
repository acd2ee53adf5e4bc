package pmcd

import (
	"bytes"
	"io"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"unsafe"
)

// CPULimit is the GOMAXPROCS the Go runtime would choose now: the CPUs
// the process may run on, fewer if its cgroup (v2) has a CPU quota
// (rounded up, at least 2), or 0 if the affinity cannot be read. The
// runtime stops following these once a program sets GOMAXPROCS, as
// cmd/pmcd does, so a Server's ProcsLimit reads them itself: a
// container resized from 8 CPUs to 2 should not be raised to 8.
func CPULimit() int {
	return cpuLimit("/", affinityCount())
}

// cpuLimit is CPULimit for n CPUs of affinity, the files read under
// root.
func cpuLimit(root string, n int) int {
	if n <= 0 {
		return 0
	}
	quota, ok := cgroupQuota(root)
	if !ok {
		return n
	}
	return min(n, max(2, int(math.Ceil(quota))))
}

// affinityCount is the number of CPUs the process may run on, 0 if it
// cannot be read.
func affinityCount() int {
	// 1024 CPUs; a larger machine's mask does not fit, and then the
	// count is left to the cgroup and MaxProcs.
	var mask [128]byte
	r, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, uintptr(len(mask)), uintptr(unsafe.Pointer(&mask[0])))
	if e != 0 || int(r) > len(mask) {
		return 0
	}
	n := 0
	for _, b := range mask[:r] {
		n += bits.OnesCount8(b)
	}
	return n
}

// cgroupQuota is the CPU quota (CPUs' worth) of the process's cgroup v2
// under root, and whether it has one.
func cgroupQuota(root string) (float64, bool) {
	cg, err := readSmall(filepath.Join(root, "proc/self/cgroup"), 64<<10)
	if err != nil {
		return 0, false
	}
	mounts, err := readSmall(filepath.Join(root, "proc/self/mountinfo"), 1<<20)
	if err != nil {
		return 0, false
	}
	dir, ok := cgroupV2Dir(cg, mounts)
	if !ok {
		return 0, false
	}
	b, err := readSmall(filepath.Join(root, dir, "cpu.max"), 64)
	if err != nil {
		return 0, false
	}
	return parseCPUMax(b)
}

// readSmall reads a file of at most limit bytes.
func readSmall(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, io.ErrShortBuffer
	}
	return b, nil
}

// cgroupV2Dir finds the directory of the process's cgroup v2 from
// /proc/self/cgroup ("0::/path") and /proc/self/mountinfo (the cgroup2
// mount and its root).
func cgroupV2Dir(cgroup, mountinfo []byte) (string, bool) {
	var path []byte
	for line := range bytes.Lines(cgroup) {
		if p, ok := bytes.CutPrefix(bytes.TrimRight(line, "\n"), []byte("0::")); ok {
			path = p
			break
		}
	}
	if len(path) == 0 || path[0] != '/' {
		return "", false
	}
	for line := range bytes.Lines(mountinfo) {
		// ID parent major:minor root mount-point options
		// [optional...] - type source super-options
		f := bytes.Fields(line)
		sep := -1
		for i, x := range f {
			if string(x) == "-" {
				sep = i
				break
			}
		}
		if sep < 5 || sep+1 >= len(f) || string(f[sep+1]) != "cgroup2" {
			continue
		}
		root, point := string(f[3]), string(f[4])
		rel := string(path)
		if root != "/" {
			r, ok := bytes.CutPrefix(path, []byte(root))
			if !ok || (len(r) > 0 && r[0] != '/') {
				continue
			}
			rel = string(r)
		}
		return filepath.Join(point, filepath.Clean("/"+rel)), true
	}
	return "", false
}

// parseCPUMax reads cgroup v2's cpu.max, "quota period" in µs or "max
// period", as CPUs' worth, and whether there is a quota.
func parseCPUMax(b []byte) (float64, bool) {
	f := bytes.Fields(b)
	if len(f) != 2 || string(f[0]) == "max" {
		return 0, false
	}
	quota, err := strconv.ParseUint(string(f[0]), 10, 63)
	if err != nil {
		return 0, false
	}
	period, err := strconv.ParseUint(string(f[1]), 10, 63)
	if err != nil || period == 0 {
		return 0, false
	}
	return float64(quota) / float64(period), true
}
