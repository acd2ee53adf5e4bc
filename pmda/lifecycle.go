package pmda

import (
	"errors"
	"slices"
	"sync"
)

// lifecycle is what an agent holds until its owner ends it: the
// functions that release its listeners, goroutines, mappings and files.
type lifecycle struct {
	mu      sync.Mutex
	closers []func() error
	closed  bool
	once    sync.Once
	err     error // set by run, read after once
}

// OnClose adds f to what Close runs. An agent that keeps anything beyond
// its tables (a listener and the goroutines serving it, memory mappings,
// open files) gives it an end here when it is built, so that whoever
// owns the agent can end it without knowing what it holds. Closers run
// in the reverse of the order they were added. f added after Close has
// run is run at once, its error dropped: nothing is left to report it
// to.
func (a *Agent) OnClose(f func() error) {
	a.life.mu.Lock()
	if !a.life.closed {
		a.life.closers = append(a.life.closers, f)
		a.life.mu.Unlock()
		return
	}
	a.life.mu.Unlock()
	_ = f()
}

// Close ends the agent: it runs the functions given to OnClose, once,
// and returns their errors joined; later calls return the same. The
// agent's owner calls it once it sends the agent no more requests:
// pmcd when it drops, replaces or stops an in-process agent and when it
// stops, a local context when it is closed, DaemonOptions.Main when its
// daemon exits. Its goroutines and listeners are gone when Close
// returns, so a new instance of the agent may take the same port.
func (a *Agent) Close() error {
	a.life.once.Do(a.life.run)
	return a.life.err
}

// run is Close's work, done once; callers meanwhile wait for it.
func (l *lifecycle) run() {
	l.mu.Lock()
	l.closed = true
	fs := l.closers
	l.closers = nil
	l.mu.Unlock()
	var errs []error
	for _, f := range slices.Backward(fs) {
		if err := f(); err != nil {
			errs = append(errs, err)
		}
	}
	l.err = errors.Join(errs...)
}
