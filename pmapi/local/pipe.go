package local

import (
	"context"
	"errors"
	"fmt"
	"io"
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

// companionDrainWait is how long after a cancelled request its answer
// may still come: the next request waits for it that long at most (as
// its own context allows), and takes a companion that has not answered
// by then as lost.
const companionDrainWait = 10 * time.Second

// companion is a context's Companion process and the pipe to it. The
// Context's lock keeps one request at a time on the pipe.
type companion struct {
	cmd    *exec.Cmd
	in     io.Closer // the companion's standard input, written here
	out    io.Closer // its standard output, read here
	r      *pdu.Reader
	w      *pdu.Writer
	done   <-chan struct{} // closed once cmd has been waited for
	lost   bool            // the conversation failed: its agents are gone
	open   int             // agents not yet closed
	result pdu.Result      // fetch answers, reused
	send   []byte          // a request's PDUs, encoded, reused

	// pending, when not nil, is the exchange of a request whose caller
	// gave up (its context was done): it goes on, so that the pipe stays
	// in step, and the next request first waits for it, until
	// pendingBy at most (drainWait after the cancel; zero:
	// companionDrainWait).
	pending   chan exchanged
	pendingBy time.Time
	drainWait time.Duration
}

// exchanged is what an exchange with the companion came to: the answer,
// or the agent's error, or (lost) a failure of the conversation itself.
type exchanged struct {
	m    pdu.Message
	err  error
	lost bool
}

// pipeAgent is one agent of a companion, by its domain.
type pipeAgent struct {
	c      *companion
	domain uint32
	closed bool
	// profile is the instance profile to send before the next request.
	profile *pdu.Profile
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
	// From a thread that lives as long as the program: the kernel's
	// parent-death signal follows the thread that forked, and the
	// context may be opened on a thread that ends before it.
	in, out, done, err := childproc.StartPiped(cmd)
	if err != nil {
		return nil, err
	}
	// No time limit on the reads, the start reports included: an agent
	// takes as long to start and answer as it would in-process, where
	// nothing limits it (a -race build on a loaded machine takes seconds
	// to start the companion), and a companion that ends gives EOF.
	c := &companion{cmd: cmd, in: in, out: out, done: done,
		r: pdu.NewReader(pdu.Direct(out), 0), w: pdu.NewWriter(pdu.Direct(in))}
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
//
// When ctx is done before the answer has come, Handle returns ctx's
// error at once and the exchange goes on without it; the next request
// waits for that answer and drops it (settle), so a cancel costs the
// context nothing.
func (p *pipeAgent) Handle(ctx context.Context, _ pmda.Client, req pdu.Message) (pdu.Message, error) {
	c := p.c
	if err := c.settle(ctx); err != nil {
		return nil, err
	}
	if c.lost || p.closed {
		return nil, pcp.ErrNoAgent
	}
	if err := ctx.Err(); err != nil {
		return nil, ctxError(err)
	}
	// Encoded here, under the context's lock: the exchange may go on
	// after the caller has changed req or the profile.
	c.send = c.send[:0]
	if p.profile != nil {
		c.send = p.profile.Append(c.send, int32(p.domain))
		p.profile = nil
	}
	reqAt := len(c.send)
	c.send = req.Append(c.send, int32(p.domain))
	t := req.PDUType()
	if ctx.Done() == nil {
		return c.outcome(c.exchange(reqAt, t))
	}
	done := make(chan exchanged, 1)
	go func() { done <- c.exchange(reqAt, t) }()
	select {
	case x := <-done:
		return c.outcome(x)
	case <-ctx.Done():
		wait := c.drainWait
		if wait == 0 {
			wait = companionDrainWait
		}
		c.pending, c.pendingBy = done, time.Now().Add(wait)
		return nil, ctxError(ctx.Err())
	}
}

// ctxError is the error of a request whose context is done: a deadline
// passed is also PCP's timeout.
func ctxError(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("pmapi: local agent: %w: %w", err, pcp.ErrTimeout)
	}
	return fmt.Errorf("pmapi: local agent: %w", err)
}

// settle waits for the answer of a request given up, within ctx and
// until pendingBy, and drops it; a conversation that failed meanwhile,
// or an answer not come by pendingBy, loses the companion.
func (c *companion) settle(ctx context.Context) error {
	if c.pending == nil {
		return nil
	}
	// An answer already come is taken first: with pendingBy past, the
	// timer below is ready too and select would pick either at random.
	select {
	case x := <-c.pending:
		c.drop(x)
		return nil
	default:
	}
	left := time.Until(c.pendingBy)
	if left <= 0 {
		left = 0
	}
	t := time.NewTimer(left)
	defer t.Stop()
	select {
	case x := <-c.pending:
		c.drop(x)
		return nil
	case <-t.C:
		// The companion still owes an answer: the pipe cannot be used
		// again until it comes, and it has not come in time.
		_ = c.lose(pcp.ErrIPC)
		return nil
	case <-ctx.Done():
		return ctxError(ctx.Err())
	}
}

// drop ends the wait for a request given up with what its exchange
// came to, losing the companion if the conversation failed.
func (c *companion) drop(x exchanged) {
	c.pending = nil
	if x.lost {
		_ = c.lose(x.err)
	}
}

// exchange sends the PDUs encoded in c.send, a profile before reqAt if
// the agent has a new one and then a request of type t, and reads the
// answer; it changes nothing of c but the pipe's place and the kept
// result, so that it can finish after its caller has gone.
func (c *companion) exchange(reqAt int, t pdu.Type) exchanged {
	// Not the caller's context: a write or read cut short would leave
	// the pipe out of step.
	ctx := context.Background()
	if reqAt > 0 {
		if err := c.w.WritePDU(ctx, c.send[:reqAt]); err != nil {
			return exchanged{err: err, lost: true}
		}
	}
	if err := c.w.WritePDU(ctx, c.send[reqAt:]); err != nil {
		return exchanged{err: err, lost: true}
	}
	switch t {
	case pdu.TypeProfile, pdu.TypeAttr, pdu.TypeError:
		return exchanged{} // notices: no answer
	}
	b, err := c.r.ReadPDU(ctx)
	if err != nil {
		return exchanged{err: err, lost: true}
	}
	var m pdu.Message
	if h, _ := pdu.ParseHeader(b); h.Type == pdu.TypeResult {
		err = c.result.Decode(b)
		m = &c.result
	} else {
		m, err = pdu.Decode(b)
	}
	if err != nil {
		return exchanged{err: err, lost: true}
	}
	if e, ok := m.(*pdu.Error); ok {
		switch {
		case e.Code < 0:
			return exchanged{err: pcp.Error(e.Code)}
		case t == pdu.TypeResult:
			return exchanged{m: m} // a store done
		}
		return exchanged{err: pcp.ErrGeneric}
	}
	if !pdu.Answers(t, m.PDUType()) {
		return exchanged{err: fmt.Errorf("%v answered with a %v PDU: %w", t, m.PDUType(), pcp.ErrIPC), lost: true}
	}
	return exchanged{m: m}
}

// outcome gives the caller what an exchange came to, losing the
// companion after a failed conversation.
func (c *companion) outcome(x exchanged) (pdu.Message, error) {
	if x.lost {
		return nil, c.lose(x.err)
	}
	return x.m, x.err
}

// Profile keeps the instance profile, sent before the next request
// (the context gives it right before the request it is for): a failure
// is that request's.
func (p *pipeAgent) Profile(m *pdu.Profile) {
	p.profile = m
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
// companionStopGrace; it says whether it had to. An exchange given up
// ends with the pipe.
func (c *companion) stop() (killed bool) {
	c.in.Close()
	c.out.Close()
	if c.pending != nil {
		<-c.pending
		c.pending = nil
	}
	if c.cmd == nil {
		return false
	}
	return childproc.Stop(c.cmd, c.done, companionStopGrace)
}
