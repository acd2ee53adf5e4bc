package pmda

import (
	"bytes"
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
	entries, err := ParseHelp(bytes.NewReader(src), HelpOptions{
		File: file,
		Lookup: func(name string) (pcp.PMID, error) {
			if id, ok := pmids[name]; ok {
				return id, nil
			}
			return pcp.PMIDNull, pcp.ErrName
		},
		Domains: domains,
	})
	if err != nil {
		return nil, fmt.Errorf("help text %s: %w", file, err)
	}
	return NewHelp(entries), nil
}
