package pmcd

import (
	"fmt"
	"net"
	"strings"
	"syscall"
)

// AgentTable is the table of running agents PCP's pmcd writes to its log
// when it starts and after a SIGHUP (PrintAgentInfo): name, domain,
// process id, the descriptors pmcd reads and writes the agent on, the
// PDU version and how it is reached. In-process agents show as DSOs
// with their PCP counterpart's interface version, their library (none
// for the built-in configuration's), entry point and the address of the
// Go function registered for it (PCP's is the address dlsym gave).
func (s *Server) AgentTable() string {
	var b strings.Builder
	b.WriteString("\nactive agent dom   pid  in out ver protocol parameters\n")
	b.WriteString("============ === ===== === === === ======== ==========\n")
	for _, a := range s.st().order {
		a.mu.Lock()
		be := a.b
		a.mu.Unlock()
		if be == nil {
			continue // not connected: PCP leaves it out too
		}
		c := a.conf
		fmt.Fprintf(&b, "%-12s", c.Name)
		switch x := be.(type) {
		case *inProc:
			fmt.Fprintf(&b, " %3d               %3d dso i:%d ", c.Domain, 2, x.a.Interface())
			if c.Path != "" {
				fmt.Fprintf(&b, " lib=%s", c.Path)
			}
			fmt.Fprintf(&b, " entry=%s", c.Entry)
			if x.entry != 0 {
				// PCP shows where dlsym found the entry point; here it
				// is the Go function that built the agent.
				fmt.Fprintf(&b, " [%#x]", x.entry)
			}
			b.WriteByte('\n')
		case *daemon:
			pid := 0
			if x.cmd != nil && x.cmd.Process != nil {
				pid = x.cmd.Process.Pid
			}
			in, out := x.fds()
			fmt.Fprintf(&b, " %3d %5d %3d %3d %3d bin ", c.Domain, pid, in, out, 2)
			switch c.Kind {
			case AgentPipe:
				fmt.Fprintf(&b, "pipe cmd=%s\n", cmdLine(c.Argv))
			case AgentSocket:
				if c.Family == "unix" {
					fmt.Fprintf(&b, "sock dom=unix port=%s", c.Addr)
				} else if p, err := net.LookupPort("tcp", c.Addr); err == nil && !isNumber(c.Addr) {
					fmt.Fprintf(&b, "sock dom=%s port=%s (%d)", c.Family, c.Addr, p)
				} else {
					fmt.Fprintf(&b, "sock dom=%s port=%s", c.Family, c.Addr)
				}
				if len(c.Argv) > 0 {
					fmt.Fprintf(&b, " cmd=%s", cmdLine(c.Argv))
				}
				b.WriteByte('\n')
			}
		default:
			b.WriteString("????\n")
		}
	}
	return b.String()
}

// fds are the descriptors pmcd reads the agent's replies from and
// writes its requests to (one socket for both), -1 when unknown.
func (d *daemon) fds() (in, out int) {
	in, out = -1, -1
	switch c := d.conn.(type) {
	case multiCloser: // a pipe agent: its stdin's write end, its stdout's read end
		if len(c) == 2 {
			out, in = fdOf(c[0]), fdOf(c[1])
		}
	default:
		in = fdOf(c)
		out = in
	}
	return in, out
}

// fdOf is the descriptor of a file or connection, without the side
// effects of os.File.Fd (which would make it blocking).
func fdOf(x any) int {
	sc, ok := x.(syscall.Conn)
	if !ok {
		return -1
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	_ = rc.Control(func(u uintptr) { fd = int(u) })
	return fd
}
