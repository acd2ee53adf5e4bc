package pmda

import (
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// HelpFromSource reads an agent's help written in newhelp(1)'s source form
// (usually embedded in the agent with //go:embed), resolving metric names
// by pmids and symbolic domains ("@ SAMPLE.1") by domains. It is how Go
// agents carry their help: one text, read once when the first agent is
// made (wrap it in sync.OnceValues), never at package init, so tools that
// link an agent but never make one pay nothing. file names the source in
// errors.
func HelpFromSource(src []byte, file string, pmids map[string]pcp.PMID, domains map[string]uint32) (*Help, error) {
	// Parsed in place: reading it through io.ReadAll would copy it in
	// doubling buffers, garbage that stays resident in an agent that
	// allocates too little ever to collect it.
	hp := NewHelpParser(HelpOptions{
		File: file,
		Lookup: func(name string) (pcp.PMID, error) {
			if id, ok := pmids[name]; ok {
				return id, nil
			}
			return pcp.PMIDNull, pcp.ErrName
		},
		Domains: domains,
	})
	err := hp.parseSource(src, file)
	entries := hp.Entries()
	if err != nil {
		return nil, fmt.Errorf("help text %s: %w", file, err)
	}
	return NewHelp(entries), nil
}
