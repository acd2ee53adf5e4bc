package ownfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
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
// its open flags; when those cannot be read the descriptor is taken to
// write.
func writing(pid, fd string) bool {
	flags, ok := fdFlags(pid, fd)
	return !ok || flags&uint64(os.O_WRONLY|os.O_RDWR) != 0
}

// fdFlags is the flags line of a process's descriptor's fdinfo (octal
// open flags); false when it cannot be read.
func fdFlags(pid, fd string) (uint64, bool) {
	info, err := os.ReadFile(filepath.Join("/proc", pid, "fdinfo", fd))
	if err != nil {
		return 0, false
	}
	for _, line := range bytes.Split(info, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("flags:")); ok {
			flags, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 8, 64)
			return flags, err == nil
		}
	}
	return 0, false
}

// closeOnExec is O_CLOEXEC in fdinfo's flags.
const closeOnExec = 0o2000000

// Inherited reports whether fd is open and was left open by this
// process's parent: every descriptor the Go runtime and the standard
// library open has close-on-exec, so one without it came through exec.
// Programs that name descriptors as PCP's C programs would (pmlogger's
// -x, dbpmda's messages) ask this to tell the launcher's from the
// runtime's. Without /proc an open descriptor is taken as inherited.
func Inherited(fd int) bool {
	if fd < 0 {
		return false
	}
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil {
		return false
	}
	flags, ok := fdFlags("self", strconv.Itoa(fd))
	return !ok || flags&closeOnExec == 0
}
