package pmda

import (
	"os"
	"sync/atomic"
)

// hostPID is SetHostPID's pid, 0 for none.
var hostPID atomic.Int64

// HostPID is the pid an agent reports as its own (sample.daemon_pid, the
// trace agent's acknowledgements): the pid of the process it serves in,
// as getpid() in PCP's DSO agent gives the pid of the pmcd or tool that
// loaded it. That is this process unless SetHostPID named another.
func HostPID() int {
	if pid := hostPID.Load(); pid > 0 {
		return int(pid)
	}
	return os.Getpid()
}

// SetHostPID names the process this one runs agents for: a companion
// serving a tool's local context (cmd/pmdalocal) names the tool, whose
// own process PCP's DSO would have been in.
func SetHostPID(pid int) { hostPID.Store(int64(pid)) }
