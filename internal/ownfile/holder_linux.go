package ownfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
)

// holder is a live process other than this one that has path open for
// writing, found through /proc/PID/fd and fdinfo; 0 when there is none,
// path does not exist, or no process this one may examine has it. A
// reader (tail -f) does not count: moving the log aside loses it nothing.
func holder(path string) int {
	target, err := os.Stat(path)
	if err != nil {
		return 0
	}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	self := os.Getpid()
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == self {
			continue
		}
		dir := filepath.Join("/proc", p.Name(), "fd")
		fds, err := os.ReadDir(dir)
		if err != nil {
			continue // gone, or not ours to look at
		}
		for _, fd := range fds {
			fi, err := os.Stat(filepath.Join(dir, fd.Name()))
			if err == nil && os.SameFile(fi, target) && writing(p.Name(), fd.Name()) {
				return pid
			}
		}
	}
	return 0
}

// writing reports whether a process's descriptor is open for writing, by
// the flags line of its fdinfo (octal open flags); when that cannot be
// read the descriptor is taken to write.
func writing(pid, fd string) bool {
	info, err := os.ReadFile(filepath.Join("/proc", pid, "fdinfo", fd))
	if err != nil {
		return true
	}
	for _, line := range bytes.Split(info, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("flags:")); ok {
			flags, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 8, 64)
			if err != nil {
				return true
			}
			return flags&uint64(os.O_WRONLY|os.O_RDWR) != 0
		}
	}
	return true
}
