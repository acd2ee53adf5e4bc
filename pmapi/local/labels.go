package local

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/gopcp/gopcp/internal/hostlabels"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// contextLabels are a local context's labels: the host's, and this
// process's user and group as optional labels.
func contextLabels() (pcp.LabelSet, error) {
	l := hostlabels.Read(hostlabels.SysconfDir())
	for k, v := range map[string]int{"userid": os.Getuid(), "groupid": os.Getgid()} {
		b, _ := json.Marshal(v)
		l[k] = hostlabels.Label{Value: b, Optional: true}
	}
	return l.Set()
}

// loaderLabels answers a domain-level label request for an in-process
// agent without a label callback (its PCP counterpart's interface is
// below 7) as libpcp does for such a shared object: the domain is named
// after the object's path as the table has it (pmcd.conf's, or a -K
// specification's), and the agent is not asked. ok is false for every
// other request, which goes to the agent.
func (c *Context) loaderLabels(domain uint32, level uint8) (sets []pcp.LabelSet, ok bool, err error) {
	if level != pcp.LabelDomain {
		return nil, false, nil
	}
	c.mu.Lock()
	a, err := c.agent(domain)
	path := c.paths[domain]
	c.mu.Unlock()
	p, inproc := a.(*pmda.Agent)
	if err != nil || !inproc || p.HasLabelCallback() {
		return nil, false, nil
	}
	sets, err = pmda.LoaderDomainLabels(path)
	return sets, true, err
}

// loaderDomainLabels is loaderLabels' answer for an agent found to have
// no label callback by its answer.
func (c *Context) loaderDomainLabels(call string, domain uint32) ([]pcp.LabelSet, error) {
	c.mu.Lock()
	path := c.paths[domain]
	c.mu.Unlock()
	sets, err := pmda.LoaderDomainLabels(path)
	if err != nil {
		return nil, fmt.Errorf("pmapi: %s: %w", call, err)
	}
	return sets, nil
}
