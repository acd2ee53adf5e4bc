// Package agentserver is the companion's side of a local context
// (package pmapi/local): the agents of agents/all that a tool does not
// link, built and served in a process of their own (cmd/pmdalocal) on
// its standard input and output with pmcd's agent PDUs. It is apart from
// pmapi/local so that the companion, started at every -L, links neither
// the client library nor what only it needs (archives, their
// decompressors, authentication), whose initialisation and pages each
// start would pay.
package agentserver

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// Program is the companion's name, the program a local context starts.
const Program = "pmdalocal"

// Entry is an agent the companion serves: its entry point in the pmda
// registry and its domain.
type Entry struct {
	Domain int
	Entry  string
}

// Serve is the companion's side of a local context (its main): it builds the
// registry agent of each entry for its domain, in order, telling the
// context of each that it started (an ERROR PDU of 0) or why not (a TEXT
// PDU, the text libpcp's warning gives), then answers the context's
// PDUs, each to the agent of the domain its header's "from" field names,
// as that agent's one client, until the context closes r's other end;
// then it closes the agents. The first of a domain serves it, as in a
// Context. The registry is the calling program's (it links agents/all).
// What Serve returns is a failure to talk to the context or to close
// an agent.
func Serve(ctx context.Context, list []Entry, r io.Reader, w io.Writer) error {
	pw := pdu.NewWriter(w)
	served := map[uint32]*pmda.Dispatcher{}
	var agents []*pmda.Agent
	closeAll := func() error {
		var errs []error
		for _, a := range agents {
			errs = append(errs, a.Close())
		}
		return errors.Join(errs...)
	}
	for _, e := range list {
		var status pdu.Message = &pdu.Error{}
		newAgent, ok := pmda.Lookup(e.Entry)
		a, err := (*pmda.Agent)(nil), error(nil)
		if ok {
			a, err = newAgent(uint32(e.Domain))
		} else {
			err = fmt.Errorf("no agent registered for entry point %q", e.Entry)
		}
		switch {
		case err != nil:
			status = &pdu.Text{Text: InitErrText(err)}
		case served[uint32(e.Domain)] != nil:
			agents = append(agents, a) // closed at the end, never asked
		default:
			agents = append(agents, a)
			served[uint32(e.Domain)] = pmda.NewDispatcher(a, pw)
		}
		if err := pw.WriteMessage(ctx, status, 0); err != nil {
			return errors.Join(err, closeAll())
		}
	}
	pr := pdu.NewReader(r, 0) // the context may be quiet for as long as it likes
	for {
		b, err := pr.ReadPDU(ctx)
		if errors.Is(err, io.EOF) {
			return closeAll()
		}
		if err != nil {
			return errors.Join(err, closeAll())
		}
		h, err := pdu.ParseHeader(b)
		if err != nil {
			return errors.Join(err, closeAll())
		}
		d := served[uint32(h.From)]
		if d == nil {
			return errors.Join(fmt.Errorf("pmapi: local agents: a request for domain %d, which has none", h.From), closeAll())
		}
		// The agent's client is the context, client 0 as in-process.
		binary.BigEndian.PutUint32(b[8:12], 0)
		// An agent's panic has been answered with PM_ERR_IPC and the
		// agent serves on, as in-process; a failed write ends the
		// conversation at the next read.
		_ = d.Dispatch(ctx, b)
	}
}

// InitErrText is pmErrStr's text of an agent's failure to start: a PCP
// error's own text, else the error's.
func InitErrText(err error) string {
	var pe pcp.Error
	if errors.As(err, &pe) {
		return pe.Error()
	}
	return err.Error()
}
