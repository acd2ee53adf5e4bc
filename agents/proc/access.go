package proc

import (
	"runtime"
	"strconv"
	"syscall"

	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// PCP's agent reads a client's processes with the client's own
// credentials: pmcd forwards the user and group of a client on its Unix
// socket (ATTR PDUs), and for each request the agent switches its
// effective user and group to them, so the kernel decides which files
// the client may read. A client pmcd cannot vouch for (TCP) gets
// PM_ERR_PERMISSION for every per-process value and for the process
// instance domains, unless the agent runs with -A.

// clientState is what the agent keeps per client.
type clientState struct {
	uid, gid           int
	hasUID, hasGID     bool
	threads, threadsOK bool
	threadsSet         bool
	cgroups            string
	cgroupsSet         bool
	container          string // the container the client named, "" for none
}

// credentialed reports whether pmcd gave both the client's user and
// group.
func (cs *clientState) credentialed() bool { return cs != nil && cs.hasUID && cs.hasGID }

// client is c's state, nil for a client with none.
func (p *Proc) client(c pmda.Client) *clientState {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.clients[c]
}

// clientFor is c's state, made when missing.
func (p *Proc) clientFor(c pmda.Client) *clientState {
	p.mu.Lock()
	defer p.mu.Unlock()
	cs := p.clients[c]
	if cs == nil {
		cs = &clientState{}
		p.clients[c] = cs
	}
	return cs
}

// Attribute records a client's user and group, and the container it
// names (an empty name none).
func (p *Proc) Attribute(c pmda.Client, key pdu.AttrKey, value []byte) error {
	if key != pdu.AttrUserID && key != pdu.AttrGroupID && key != pdu.AttrContainer {
		return nil
	}
	for len(value) > 0 && (value[len(value)-1] == 0 || value[len(value)-1] == '\n') {
		value = value[:len(value)-1]
	}
	if key == pdu.AttrContainer {
		cs := p.clientFor(c)
		p.mu.Lock()
		cs.container = string(value)
		p.mu.Unlock()
		return nil
	}
	id, _ := strconv.Atoi(string(value))
	cs := p.clientFor(c)
	p.mu.Lock()
	defer p.mu.Unlock()
	if key == pdu.AttrUserID {
		cs.uid, cs.hasUID = id, true
	} else {
		cs.gid, cs.hasGID = id, true
	}
	return nil
}

// EndContext forgets a client.
func (p *Proc) EndContext(c pmda.Client) {
	p.mu.Lock()
	delete(p.clients, c)
	p.mu.Unlock()
}

// credSwitch runs work under a client's user and group.
type credSwitch struct {
	uid, gid int // the agent's own
}

func newCredSwitch() credSwitch {
	return credSwitch{uid: syscall.Getuid(), gid: syscall.Getgid()}
}

// run runs fn with cs's credentials, telling it (and returning) whether the client may
// see per-process values: with all, always, and fn runs as the agent;
// otherwise only a client with both user and group, when the switch to
// them (if they are not the agent's own) succeeds. fn runs in any case,
// as PCP's agent refreshes its lists whatever the client may see.
//
// The switch is made on a goroutine of its own, locked to its thread,
// with the raw setresuid and setresgid system calls, which change only
// that thread; the goroutine ends still locked, so the thread ends with
// it and no other goroutine ever runs with the client's credentials.
func (s credSwitch) run(cs *clientState, all bool, fn func(ok bool)) bool {
	if all {
		fn(true)
		return true
	}
	if !cs.credentialed() {
		fn(false)
		return false
	}
	if cs.uid == s.uid && cs.gid == s.gid {
		fn(true)
		return true
	}
	ok := false
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		// Never unlocked: the thread goes when this goroutine does.
		ok = true
		if cs.gid != s.gid {
			if _, _, e := syscall.RawSyscall(syscall.SYS_SETRESGID, uintptr(cs.gid), uintptr(cs.gid), ^uintptr(0)); e != 0 {
				ok = false
			}
		}
		if cs.uid != s.uid {
			if _, _, e := syscall.RawSyscall(syscall.SYS_SETRESUID, uintptr(cs.uid), uintptr(cs.uid), ^uintptr(0)); e != 0 {
				ok = false
			}
		}
		fn(ok)
	}()
	<-done
	return ok
}
