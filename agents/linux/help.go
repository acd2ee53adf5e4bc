package linux

import (
	_ "embed" // the help source
	"fmt"
	"sync"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// helpSource is the help text of every metric and instance domain,
// written for this agent, in newhelp(1)'s source form.
//
//go:embed help
var helpSource []byte

// help is helpSource read, the first time an agent is made rather than at
// package init: every tool links this package for local contexts, and
// most runs never make a Linux agent. Its texts are keyed in Domain and
// are applied with Domain whatever the agent's domain.
func help() (*pmda.Help, error) {
	helpOnce.Do(func() { helpOnce.h, helpOnce.err = readHelp() })
	return helpOnce.h, helpOnce.err
}

// helpOnce holds help's answer. A zero value: sync.OnceValues at package
// level is a call made at init.
var helpOnce struct {
	sync.Once
	h   *pmda.Help
	err error
}

// readHelp reads helpSource, resolving metric names by pcpDescs.
func readHelp() (*pmda.Help, error) {
	pmids := make(map[string]pcp.PMID, len(pcpDescs))
	for i := range pcpDescs {
		d := &pcpDescs[i]
		pmids[d.Name] = pcp.NewPMID(Domain, d.Cluster, d.Item)
	}
	h, err := pmda.HelpFromSource(helpSource, "help", pmids, map[string]uint32{"LINUX": Domain})
	if err != nil {
		return nil, fmt.Errorf("linux: %w", err)
	}
	return h, nil
}
