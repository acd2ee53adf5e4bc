package pmcd

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"
)

// Why an agent was let go, in the words of PCP's CleanupAgent.
const (
	cleanupExit     = "terminated"   // its process ended
	cleanupConfig   = "unconfigured" // pmcd.conf no longer has it (SIGHUP)
	cleanupProtocol = "protocol failure for fd=%d"
)

// errProcessEnded is why an agent whose process ended is dead.
var errProcessEnded = errors.New("its process ended")

// logCleanup writes PCP's two lines for an agent let go: "CleanupAgent
// ..." through Log, then, bare as PCP writes it to its standard error
// (its log), the agent, why, and how its process ended when pmcd saw it
// end by itself (PCP waits a moment for that and says nothing otherwise;
// one this pmcd had to kill, or an in-process agent, has no such part).
func (s *Server) logCleanup(c AgentConf, why string, b backend) {
	if s.Log == nil {
		return
	}
	s.Log.Printf("Info: CleanupAgent ...")
	var line strings.Builder
	fmt.Fprintf(&line, "Cleanup \"%s\" agent (dom %d): %s", c.Name, c.Domain, why)
	if d, ok := b.(*daemon); ok && d.cmd != nil && d.cmd.ProcessState != nil && !d.killed {
		if ws, ok := d.cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
			switch {
			case ws.Exited():
				fmt.Fprintf(&line, ", exit(%d)", ws.ExitStatus())
			case ws.Signaled():
				fmt.Fprintf(&line, ", signal(%d)", int(ws.Signal()))
				if ws.CoreDump() {
					line.WriteString(", dumped core")
				}
			}
		}
	}
	line.WriteByte('\n')
	if w := s.bareLog(); w != nil {
		io.WriteString(w, line.String())
	}
}

// bareLog is where lines PCP's pmcd writes without pmNotifyErr's prefix
// go: Stderr, else the agents' standard error (both pmcd's log in
// cmd/pmcd), else nowhere.
func (s *Server) bareLog() io.Writer {
	if s.Stderr != nil {
		return s.Stderr
	}
	return s.AgentStderr
}

// protocolFailure is the cleanup reason for an agent whose conversation
// failed: PCP names the descriptor it read the agent on, -1 for an
// in-process agent.
func protocolFailure(b backend) string {
	fd := -1
	if d, ok := b.(*daemon); ok {
		fd, _ = d.fds()
	}
	return fmt.Sprintf(cleanupProtocol, fd)
}

// closeBackend ends b; an in-process agent whose Close did not return in
// time is reported (not PCP's line: a DSO has no Close, but an operator
// needs to know that a goroutine of it was left running).
func (s *Server) closeBackend(c AgentConf, b backend) {
	b.close()
	if p, ok := b.(*inProc); ok && p.abandoned {
		s.logf("Warning: agent \"%s\" (domain %d) did not finish closing within %v; pmcd goes on without it", c.Name, c.Domain, stopGrace)
	}
}
