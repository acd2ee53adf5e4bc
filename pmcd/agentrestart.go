package pmcd

import (
	"context"
	"sync"
	"time"
)

// restartDelay is how long after now a dead agent last restarted at
// lastRestart (zero if never) waits to be started again: not at all,
// unless it was restarted under restartInterval ago, when it waits until
// restartInterval after that restart. An agent that keeps dying is so
// restarted once a minute, as PCP's pmcd does (PCP's limit is one for
// all agents; here each agent has its own, so one agent's deaths do not
// hold back another's restart).
func restartDelay(now, lastRestart time.Time) time.Duration {
	if lastRestart.IsZero() {
		return 0
	}
	return max(0, restartInterval-now.Sub(lastRestart))
}

// reapDead marks dead the daemon agents whose process has ended, as
// PCP's pmcd finds them when it rescans (SIGHUP, a restart): otherwise a
// death is found, as in PCP's pmcd, by the next request to the agent,
// which fails, and the restart (AutoRestart) follows it. Only an agent
// pmcd started has a process to look at.
func (s *Server) reapDead() {
	for _, a := range s.st().order {
		a.mu.Lock()
		if d, ok := a.b.(*daemon); ok && d.done != nil {
			select {
			case <-d.done:
				a.kill(errProcessEnded)
				a.reason = reasonExit
				a.publish()
			default:
			}
		}
		a.mu.Unlock()
	}
}

// scheduleRestart starts a dead agent again under AutoRestart, at once
// or after restartDelay, on a goroutine of its own. a.mu is held.
func (s *Server) scheduleRestart(a *agent) {
	if !s.AutoRestart || a.restartQueued || s.closing.Load() {
		return
	}
	a.restartQueued = true
	delay := restartDelay(time.Now(), a.lastRestart)
	if delay == 0 {
		s.restartsDue.add()
	}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		if delay > 0 {
			t := time.NewTimer(delay)
			select {
			case <-t.C:
			case <-s.stopCh():
				t.Stop()
				return
			}
			s.restartsDue.add()
		}
		defer s.restartsDue.done()
		s.restart(a)
	}()
}

// restart starts a again if it is still dead and still in pmcd.conf; a
// failure is tried again a minute later.
func (s *Server) restart(a *agent) {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	a.mu.Lock()
	a.restartQueued = false
	a.mu.Unlock()
	if s.closing.Load() || s.st().agents[a.conf.Domain] != a || a.alive() {
		return
	}
	a.mu.Lock()
	a.lastRestart = time.Now()
	a.mu.Unlock()
	// PCP's pmcd restarts agents by rescanning as for SIGHUP with
	// pmcd.conf unchanged: the labels are checked, and clients are told
	// of the restart whether or not it works.
	s.checkLabels()
	defer s.markChanges(changeRestartAgent)
	if s.bringUp(s.restartCtx, a) {
		s.logf("Info: agent %q (domain %d) restarted", a.conf.Name, a.conf.Domain)
		return
	}
	a.mu.Lock()
	s.scheduleRestart(a)
	a.mu.Unlock()
}

// stopCh is closed when the server closes, ending waits for restarts.
func (s *Server) stopCh() chan struct{} {
	s.stopOnce.Do(func() { s.stopRestarts = make(chan struct{}) })
	return s.stopRestarts
}

// inFlight counts work under way that others may wait for.
type inFlight struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n falls to 0
}

func (f *inFlight) add() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == 0 {
		f.idle = make(chan struct{})
	}
	f.n++
}

func (f *inFlight) done() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n--
	if f.n == 0 {
		close(f.idle)
	}
}

// wait returns once nothing is under way, or ctx is done.
func (f *inFlight) wait(ctx context.Context) {
	f.mu.Lock()
	n, idle := f.n, f.idle
	f.mu.Unlock()
	if n == 0 {
		return
	}
	select {
	case <-idle:
	case <-ctx.Done():
	}
}
