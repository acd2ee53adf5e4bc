package pmcd

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
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
	clients := s.clientsBySeq()
	// Names are asked at once, within one bound for them all, so that a
	// slow resolver holds a SIGHUP or a dumpconn store (made under pmcd's
	// own agent's lock) for 2 s at most, however many clients there are.
	from := make([]string, len(clients))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			from[i] = clientFrom(ctx, c)
		}()
	}
	wg.Wait()
	for i, c := range clients {
		fmt.Fprintf(&b, "    %3d  %-40.40s  %7d", fdOf(c.conn), from[i], 2)
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
// __pmGetNameInfo does: the name its address maps back to, asked within
// ctx, else the address; a Unix socket's path.
func clientFrom(ctx context.Context, c *client) string {
	if u, ok := c.conn.LocalAddr().(*net.UnixAddr); ok {
		return u.Name
	}
	ip := c.id.IP
	if ip == nil {
		return c.conn.RemoteAddr().String()
	}
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
