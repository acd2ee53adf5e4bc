package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// inherited reports whether fd is open and was not opened by the Go
// runtime itself before main (its cgroup CPU limit files, its poller):
// those take the low numbers a C program would find closed.
func inherited(fd int) bool {
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil {
		return false
	}
	target, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil {
		return true // no /proc: take it as the launcher's
	}
	return !strings.HasPrefix(target, "/sys/fs/cgroup/") && target != "anon_inode:[eventpoll]" && target != "anon_inode:[eventfd]"
}
