package proc

import (
	"context"
)

// containerState is what a request's client's container gives the
// request: nothing for a client that names none; else the cgroup
// pmdaroot names for it and the path whose processes are listed.
type containerState struct {
	named  bool
	cgroup string // below the hierarchy's top, as pmdaroot names it
	path   string // for listCgroup, as pmdaproc's cgroup_container_path
}

// enterContainer resolves client cs's container, if any, for the request
// being served (the caller holds p.state), and returns the request's
// error when it cannot be: the answer to the whole request, as PCP's
// agent answers a fetch or instance request whose container it cannot
// resolve. pmdaroot is asked at every request, as PCP's
// agent asks it: containers come and go.
func (p *Proc) enterContainer(ctx context.Context, cs *clientState) error {
	p.container = containerState{}
	name := ""
	if cs != nil {
		p.mu.Lock()
		name = cs.container
		p.mu.Unlock()
	}
	if name == "" {
		return nil
	}
	cg, err := p.root.cgroupOf(ctx, name)
	if err != nil {
		p.container = containerState{named: true}
		return err
	}
	p.container = containerState{named: true, cgroup: cg, path: p.cg.ContainerPath(cg)}
	return nil
}
