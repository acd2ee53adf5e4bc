package access

import (
	"net"
	"syscall"
)

// peerCreds reads the user, group and process ids of a Unix socket's
// peer with SO_PEERCRED, as PCP's pmcd does on Linux.
func peerCreds(c *net.UnixConn) (uid, gid, pid uint32, err error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, 0, 0, err
	}
	var cred *syscall.Ucred
	var serr error
	err = raw.Control(func(fd uintptr) {
		cred, serr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	})
	if err == nil {
		err = serr
	}
	if err != nil {
		return 0, 0, 0, err
	}
	return cred.Uid, cred.Gid, uint32(cred.Pid), nil
}
