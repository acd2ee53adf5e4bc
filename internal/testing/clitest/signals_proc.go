package clitest

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// What /proc tells of a process under test: its signal masks and the
// TCP connections it holds, for the Ready predicates that must know a
// program's state rather than guess it from time.

// statusMasks reads the signal masks named in pid's /proc status (SigCgt,
// SigIgn, ShdPnd, ...), by name; zombie is whether it has ended. ok is
// false once the process is gone.
func statusMasks(pid int) (masks map[string]uint64, zombie, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return nil, false, false
	}
	masks = make(map[string]uint64)
	for _, line := range strings.Split(string(b), "\n") {
		name, v, found := strings.Cut(line, ":")
		if !found {
			continue
		}
		v = strings.TrimSpace(v)
		if name == "State" {
			zombie = strings.Contains(v, "Z")
			continue
		}
		if strings.HasPrefix(name, "Sig") || name == "ShdPnd" {
			if n, err := strconv.ParseUint(v, 16, 64); err == nil {
				masks[name] = n
			}
		}
	}
	return masks, zombie, true
}

func sigBit(sig syscall.Signal) uint64 { return 1 << (uint(sig) - 1) }

// pending is whether sig waits in pid's process-wide pending set (where
// kill(2) puts it), false once the process is a zombie or gone.
func pending(pid int, sig syscall.Signal) bool {
	m, zombie, ok := statusMasks(pid)
	return ok && !zombie && m["ShdPnd"]&sigBit(sig) != 0
}

// ignored is whether pid ignores sig (SigIgn), false once the process is
// a zombie or gone.
func ignored(pid int, sig syscall.Signal) bool {
	m, zombie, ok := statusMasks(pid)
	return ok && !zombie && m["SigIgn"]&sigBit(sig) != 0
}

// DefaultAction says whether pid's action for sig is the default one in
// the kernel: neither caught (SigCgt) nor ignored (SigIgn). A program
// that takes a signal over for a while (libpcp_trace catches SIGALRM
// while it connects, ours ignores it) shows the default again once past.
func DefaultAction(pid int, sig syscall.Signal) bool {
	m, zombie, ok := statusMasks(pid)
	return ok && !zombie && (m["SigCgt"]|m["SigIgn"])&sigBit(sig) == 0
}

// maxSockets bounds the descriptors read per look: a program under test
// holds a few.
const maxSockets = 4096

// maxNetRows bounds the /proc/net/tcp rows read per look. The table is the
// whole network namespace's, not the program's: beside a system pmcd and
// parallel test runs it holds far more than the program's few sockets, so
// its bound is the kernel's own scale, not maxSockets.
const maxNetRows = 1 << 20

// socketInodes gives the inodes of the sockets pid holds open.
func socketInodes(pid int) map[string]bool {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(maxSockets)
	inodes := make(map[string]bool)
	for _, n := range names {
		link, err := os.Readlink(dir + "/" + n)
		if err != nil {
			continue
		}
		if ino, ok := strings.CutPrefix(link, "socket:["); ok {
			inodes[strings.TrimSuffix(ino, "]")] = true
		}
	}
	return inodes
}

// tcpEstablished is state 01 of /proc/net/tcp's st column.
const tcpEstablished = "01"

// connections gives the local ports of pid's established TCP connections
// (IPv4 and IPv6) to remote port on any address: pid's own, told from
// other processes' by the socket inodes it holds.
func connections(pid, remote int) []int {
	inodes := socketInodes(pid)
	if len(inodes) == 0 {
		return nil
	}
	want := fmt.Sprintf(":%04X", remote)
	var ports []int
	for _, table := range []string{"tcp", "tcp6"} {
		f, err := os.Open(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		if err != nil {
			continue
		}
		s := bufio.NewScanner(f)
		for rows := 0; rows < maxNetRows && s.Scan(); rows++ {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			fields := strings.Fields(s.Text())
			if len(fields) < 10 || fields[3] != tcpEstablished || !strings.HasSuffix(fields[2], want) || !inodes[fields[9]] {
				continue
			}
			_, local, _ := strings.Cut(fields[1], ":")
			if p, err := strconv.ParseUint(local, 16, 16); err == nil {
				ports = append(ports, int(p))
			}
		}
		f.Close()
	}
	return ports
}
