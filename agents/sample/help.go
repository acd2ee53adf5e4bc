package sample

import (
	_ "embed" // the help source
	"fmt"
	"sync"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// helpSource is the help text of every metric and instance domain,
// written for this agent, in newhelp(1)'s source form. It describes what
// the metrics do, which is what PCP's agent's metrics do.
//
//go:embed help
var helpSource []byte

// helpOnce holds helpSource read, the first time an agent is made. A
// zero value rather than sync.OnceValues, whose closures package
// initialisation would make in every tool that links the agent for local
// contexts.
var helpOnce struct {
	sync.Once
	h   *pmda.Help
	err error
}

// help is helpSource read once. Its texts are keyed in Domain and are
// applied with Domain whatever the agent's domain.
func help() (*pmda.Help, error) {
	helpOnce.Do(func() { helpOnce.h, helpOnce.err = readHelp() })
	return helpOnce.h, helpOnce.err
}

// readHelp reads helpSource, resolving metric names by the metric table.
func readHelp() (*pmda.Help, error) {
	pmids := make(map[string]pcp.PMID, len(defs))
	for _, d := range defs {
		pmids[d.names[0]] = pcp.NewPMID(Domain, 0, d.item)
	}
	h, err := pmda.HelpFromSource(helpSource, "help", pmids, map[string]uint32{"SAMPLE": Domain})
	if err != nil {
		return nil, fmt.Errorf("sample: %w", err)
	}
	return h, nil
}
