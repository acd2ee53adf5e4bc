package linux

import (
	"context"
	_ "embed" // the help source
	"fmt"
	"sync"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// helpSource is the help text of every metric and instance domain,
// written for this agent, in newhelp(1)'s source form.
//
//go:embed help
var helpSource []byte

// help is helpSource read, the first time a text request comes rather
// than when an agent is made: a local context's agent is made for every
// run of a tool, and most runs ask for no help. Its texts are keyed in Domain and
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

// Text answers a text request from the help source, read at the first
// such request. Metrics this host's agent does not serve and undeclared
// instance domains have none (pcp.ErrText), as with a table's texts.
func (x *Linux) Text(_ context.Context, _ pmda.Client, ident uint32, typ int32) (string, error) {
	h, err := help()
	if err != nil {
		return "", err
	}
	var one, full string
	var ok bool
	if typ&pdu.TextPMID != 0 {
		id := pcp.PMID(ident)
		if x.byPMID.get(id) == nil {
			return "", pcp.ErrText
		}
		one, full, ok = h.Text(pcp.NewPMID(Domain, id.Cluster(), id.Item()))
	} else {
		serial := pcp.InDom(ident).Serial()
		if pcp.InDom(ident).Domain() != x.byPMID.domain || serial >= numInDoms || !x.declared[serial] {
			return "", pcp.ErrText
		}
		one, full, ok = h.InDomText(pcp.NewInDom(Domain, serial))
	}
	if typ&pdu.TextOneLine != 0 {
		full = one
	}
	if !ok || full == "" {
		return "", pcp.ErrText
	}
	return full, nil
}
