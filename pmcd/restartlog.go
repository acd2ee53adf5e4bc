package pmcd

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/gopcp/gopcp/access"
)

// ctime is C's ctime(3): "Fri Nov 27 23:35:47 2026\n".
func ctime(t time.Time) string { return t.Format("Mon Jan _2 15:04:05 2006") + "\n" }

// ClientTable is the table of connected clients PCP's pmcd writes after a
// SIGHUP and for pmcd.control.dumpconn (ShowClients): each client's
// descriptor, where it connected from (its host's name when the address
// has one, else the address; a Unix socket's path), the PDU version and
// the operations access control denies it, then a blank line.
func (s *Server) ClientTable() string {
	var b strings.Builder
	b.WriteString("     fd  client connection from                    ipc ver  operations denied\n")
	b.WriteString("     ==  ========================================  =======  =================\n")
	for _, c := range s.clientsBySeq() {
		fmt.Fprintf(&b, "    %3d  %-40.40s  %7d", fdOf(c.conn), clientFrom(c), 2)
		c.mu.Lock()
		deny := c.deny
		c.mu.Unlock()
		if deny&(access.OpFetch|access.OpStore) != 0 {
			b.WriteString("  ")
			if deny&access.OpFetch != 0 {
				b.WriteString("fetch ")
			}
			if deny&access.OpStore != 0 {
				b.WriteString("store ")
			}
		}
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return b.String()
}

// clientFrom names where a client connected from, as PCP's
// __pmGetNameInfo does: the name its address maps back to (asked with a
// bound, so a slow resolver cannot hold a SIGHUP), else the address.
func clientFrom(c *client) string {
	if u, ok := c.conn.LocalAddr().(*net.UnixAddr); ok {
		return u.Name
	}
	ip := c.id.IP
	if ip == nil {
		return c.conn.RemoteAddr().String()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if names, err := net.DefaultResolver.LookupAddr(ctx, ip.String()); err == nil && len(names) > 0 {
		return strings.TrimSuffix(names[0], ".")
	}
	return ip.String()
}

// tables is what PCP's pmcd writes after the agents change
// (PrintAgentInfo, then the access lists), at start and on SIGHUP.
func (s *Server) tables() string {
	return s.AgentTable() + "\n" + s.st().acl.DumpHosts() + s.st().acl.DumpAccounts() + "\n"
}
