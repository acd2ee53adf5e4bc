package local

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/gopcp/gopcp/internal/childproc"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi/local/agentserver"
	"github.com/gopcp/gopcp/pmda"
)

// Companion is the program that runs the registry agents of a local
// context whose own program does not link them (the replay tools:
// linked agents are resident pages of every archive replay,
// docs/bench.md). The program says where it is (WithCompanion). One
// process serves all such agents of a context on its standard input and
// output (agentserver.Serve), each request a PDU of pmcd's agent protocol whose
// header's "from" field names the agent's domain.
const Companion = agentserver.Program

// companionStopGrace is how long a companion has to end its agents and
// exit once its input is closed before it is killed.
const companionStopGrace = 2 * time.Second

// errNoCompanion is an entry of agents/all neither linked nor given a
// Companion to run in.
var errNoCompanion = errors.New("this program does not link the agent and has no " + Companion + " to run it in")

// agent is what a Context asks: an in-process *pmda.Agent, or a
// pipeAgent in the context's companion process.
type agent interface {
	Handle(ctx context.Context, c pmda.Client, req pdu.Message) (pdu.Message, error)
	Profile(m *pdu.Profile)
	Close() error
}

// companion is a context's Companion process and the pipe to it. The
// Context's lock keeps one request at a time on the pipe.
type companion struct {
	cmd    *exec.Cmd
	in     io.Closer // the companion's standard input, written here
	out    io.Closer // its standard output, read here
	r      *pdu.Reader
	w      *pdu.Writer
	done   chan struct{} // closed once cmd has been waited for
	lost   bool          // the conversation failed: its agents are gone
	open   int           // agents not yet closed
	result pdu.Result    // fetch answers, reused
}

// pipeAgent is one agent of a companion, by its domain.
type pipeAgent struct {
	c      *companion
	domain uint32
	closed bool
}

// launchCompanion starts Companion for the entries and returns at once:
// the companion builds its agents while the context does its own work
// (the namespace, the in-process agents), and handshake then reads what
// it says of them. err is a failure to run the companion at all.
func launchCompanion(list []Entry, o *options) (*companion, error) {
	if o.companion == nil {
		return nil, errNoCompanion
	}
	path, err := o.companion()
	if err != nil {
		return nil, err
	}
	args := make([]string, 0, 2*len(list))
	for _, e := range list {
		args = append(args, e.Entry, strconv.Itoa(e.Domain))
	}
	cmd := exec.Command(path, args...)
	// The agents log with the context's warnings (stderr, for the
	// tools: where they log in-process).
	if o.warn != io.Discard {
		cmd.Stderr = o.warn
	}
	cmd.SysProcAttr = companionAttr()
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	// From a thread that lives as long as the program: the kernel's
	// parent-death signal follows the thread that forked, and the
	// context may be opened on a thread that ends before it.
	err = childproc.Start(cmd)
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	// No time limit on the reads, the start reports included: an agent
	// takes as long to start and answer as it would in-process, where
	// nothing limits it (a -race build on a loaded machine takes seconds
	// to start the companion), and a companion that ends gives EOF.
	c := &companion{cmd: cmd, in: inW, out: outR, done: make(chan struct{}),
		r: pdu.NewReader(pdu.Direct(outR), 0), w: pdu.NewWriter(pdu.Direct(inW))}
	go func() {
		_ = cmd.Wait()
		close(c.done)
	}()
	return c, nil
}

// handshake reads, for each entry the companion was started for, in
// order, whether its agent started: agents[i] is nil where it did not,
// failed[i] then the text of its failure for libpcp's warning. err is a
// companion that did not say, which is stopped.
func (c *companion) handshake(ctx context.Context, list []Entry) (agents []*pipeAgent, failed []string, err error) {
	agents, failed = make([]*pipeAgent, len(list)), make([]string, len(list))
	for i, e := range list {
		var ok bool
		if ok, failed[i], err = c.started(ctx); err != nil {
			c.stop()
			return nil, nil, fmt.Errorf("pmapi: local agent %s: %w", e.Entry, err)
		}
		if ok {
			agents[i] = &pipeAgent{c: c, domain: uint32(e.Domain)}
			c.open++
		}
	}
	if c.open == 0 {
		c.stop()
	}
	return agents, failed, nil
}

// started reads whether the companion's next agent started: an ERROR PDU
// of 0 says it did, a TEXT PDU holds the text of its failure.
func (c *companion) started(ctx context.Context) (ok bool, failed string, err error) {
	b, err := c.r.ReadPDU(ctx)
	if err != nil {
		return false, "", fmt.Errorf("%s ended before its agents started: %w", Companion, err)
	}
	m, err := pdu.Decode(b)
	if err != nil {
		return false, "", err
	}
	switch m := m.(type) {
	case *pdu.Error:
		if m.Code == 0 {
			return true, "", nil
		}
	case *pdu.Text:
		return false, m.Text, nil
	}
	return false, "", fmt.Errorf("%v PDU as an agent started: %w", m.PDUType(), pcp.ErrIPC)
}

// Handle sends req to the agent and reads its answer, as
// pmda.Agent.Handle answers in-process (the agent sees client c as 0,
// the context's one client): an ERROR answer is its PCP code, a store's
// ERROR of 0 is success. A conversation that fails loses the companion:
// that request fails with PM_ERR_IPC and the ones after it with
// PM_ERR_NOAGENT, as pmcd fails a lost daemon agent's.
func (p *pipeAgent) Handle(ctx context.Context, _ pmda.Client, req pdu.Message) (pdu.Message, error) {
	c := p.c
	if c.lost || p.closed {
		return nil, pcp.ErrNoAgent
	}
	if err := c.w.WriteMessage(ctx, req, int32(p.domain)); err != nil {
		return nil, c.lose(err)
	}
	switch req.(type) {
	case *pdu.Profile, *pdu.Attr, *pdu.Error:
		return nil, nil // notices: no answer
	}
	b, err := c.r.ReadPDU(ctx)
	if err != nil {
		return nil, c.lose(err)
	}
	var m pdu.Message
	if h, _ := pdu.ParseHeader(b); h.Type == pdu.TypeResult {
		err = c.result.Decode(b)
		m = &c.result
	} else {
		m, err = pdu.Decode(b)
	}
	if err != nil {
		return nil, c.lose(err)
	}
	if e, ok := m.(*pdu.Error); ok {
		switch {
		case e.Code < 0:
			return nil, pcp.Error(e.Code)
		case req.PDUType() == pdu.TypeResult:
			return m, nil // a store done
		}
		return nil, pcp.ErrGeneric
	}
	if m.PDUType() != replyType(req.PDUType()) {
		return nil, c.lose(fmt.Errorf("%v answered with a %v PDU: %w", req.PDUType(), m.PDUType(), pcp.ErrIPC))
	}
	return m, nil
}

// replyType is the PDU type that answers a request of type t.
func replyType(t pdu.Type) pdu.Type {
	switch t {
	case pdu.TypeFetch:
		return pdu.TypeResult
	case pdu.TypeDescReq:
		return pdu.TypeDesc
	case pdu.TypeInstanceReq:
		return pdu.TypeInstance
	case pdu.TypeTextReq:
		return pdu.TypeText
	case pdu.TypeLabelReq:
		return pdu.TypeLabel
	case pdu.TypePMNSNames:
		return pdu.TypePMNSIDs
	case pdu.TypePMNSIDs, pdu.TypePMNSChild, pdu.TypePMNSTraverse:
		return pdu.TypePMNSNames
	}
	return pdu.TypeError
}

// Profile sends the instance profile; a failure is found by the next
// request.
func (p *pipeAgent) Profile(m *pdu.Profile) {
	if !p.c.lost && !p.closed {
		if err := p.c.w.WriteMessage(context.Background(), m, int32(p.domain)); err != nil {
			_ = p.c.lose(err)
		}
	}
}

// Close ends the agent. The last of a companion's agents closed closes
// its input: the companion ends its agents (pmda.Agent.Close) and
// exits, and is killed if it has not within companionStopGrace. A
// companion that could not release what its agents held exits with a
// failure, returned here.
func (p *pipeAgent) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	c := p.c
	if c.open--; c.open > 0 {
		return nil
	}
	if killed := c.stop(); killed {
		return fmt.Errorf("pmapi: local agents: %s killed after %v", Companion, companionStopGrace)
	}
	if c.cmd == nil {
		return nil
	}
	if st := c.cmd.ProcessState; !c.lost && st != nil && !st.Success() {
		return fmt.Errorf("pmapi: local agents: %s: %s", Companion, st)
	}
	return nil
}

// lose ends the conversation after err and gives the failed request's
// error.
func (c *companion) lose(err error) error {
	c.lost = true
	c.stop()
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return pcp.ErrIPC
}

// stop closes the pipe and waits for the companion, killing it after
// companionStopGrace; it says whether it had to.
func (c *companion) stop() (killed bool) {
	c.in.Close()
	c.out.Close()
	if c.cmd == nil {
		return false
	}
	select {
	case <-c.done:
	case <-time.After(companionStopGrace):
		_ = c.cmd.Process.Kill()
		<-c.done
		killed = true
	}
	return killed
}
