package access

import (
	"fmt"
	"net"
)

// ClientID is what access control knows of a client: its address, or
// that it came through the Unix socket, and its credentials when it has
// them (Unix-socket clients).
type ClientID struct {
	IP       net.IP
	Unix     bool
	HasCreds bool
	UID, GID uint32
	PID      uint32
}

func (id ClientID) String() string {
	if id.Unix {
		if id.HasCreds {
			return fmt.Sprintf("local:uid=%d,gid=%d", id.UID, id.GID)
		}
		return "local:"
	}
	return id.IP.String()
}

// ClientOf identifies the peer of a server's connection for AdmitHost:
// its address, or for a Unix socket its credentials (SO_PEERCRED).
func ClientOf(conn net.Conn) ClientID {
	switch a := conn.RemoteAddr().(type) {
	case *net.TCPAddr:
		ip := a.IP
		if ip4 := ip.To4(); ip4 != nil {
			ip = ip4
		}
		return ClientID{IP: ip}
	}
	if uc, ok := conn.(*net.UnixConn); ok {
		id := ClientID{Unix: true}
		if uid, gid, pid, err := peerCreds(uc); err == nil {
			id.HasCreds, id.UID, id.GID, id.PID = true, uid, gid, pid
		}
		return id
	}
	// Anything else (a pipe in tests) is taken as a local process
	// without credentials.
	return ClientID{Unix: true}
}

// isNumber reports whether s is a non-empty run of decimal digits.
func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
