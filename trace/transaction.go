package trace

import (
	"context"
	"sync"
	"time"
)

// Begin is pmtracebegin: a transaction named tag starts now. A tag has one
// transaction in progress at a time (ErrInProgress). As libpcp_trace's,
// Begin connects when there is no connection yet and reports a first
// failure.
func (c *Client) Begin(ctx context.Context, tag string) error {
	if err := CheckTag(tag); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state&StateNoAgent == 0 {
		wasEver := c.ever
		if err := c.ensure(ctx); err != nil && (!wasEver || c.async() || c.closed) {
			return err
		}
	} else {
		c.logf("_pmtraceconnect: connecting to PMDA (skipped)")
		c.fixed = true
	}
	s := c.txns[tag]
	switch {
	case s == nil:
		c.debugf(StateAPI, "pmtracebegin: new transaction '%s' (id=0x%x)", tag, c.traceID())
		c.txns[tag] = &txnState{start: time.Now(), inProgress: true}
	case s.inProgress:
		return ErrInProgress
	default:
		c.debugf(StateAPI, "pmtracebegin: updating transaction '%s' (id=0x%x)", tag, c.traceID())
		s.start, s.inProgress = time.Now(), true
	}
	return nil
}

// End is pmtraceend: the transaction tag ends and its elapsed time in
// seconds goes to the agent.
func (c *Client) End(ctx context.Context, tag string) error {
	if err := CheckTag(tag); err != nil {
		return err
	}
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	s, err := c.stop(tag)
	if err != nil {
		return err
	}
	if c.tracing(StateAPI) {
		c.debugf(StateAPI, "pmtraceend: sending transaction data '%s' (id=0x%x)", tag, c.traceID())
	}
	return c.send(ctx, tag, TypeTransact, now.Sub(s.start).Seconds(), false)
}

// Abort is pmtraceabort: the transaction tag is abandoned and nothing is
// sent.
func (c *Client) Abort(tag string) error {
	if err := CheckTag(tag); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.stop(tag); err != nil {
		return err
	}
	c.debugf(StateAPI, "pmtraceabort: aborting transaction '%s' (id=0x%x)", tag, c.traceID())
	return nil
}

// stop ends the transaction tag in progress, c.mu held: ErrNoSuchTag for
// a tag never begun, ErrNoProgress for one not in progress.
func (c *Client) stop(tag string) (*txnState, error) {
	s := c.txns[tag]
	switch {
	case s == nil:
		return nil, ErrNoSuchTag
	case !s.inProgress:
		return nil, ErrNoProgress
	}
	s.inProgress = false
	return s, nil
}

// Transaction is one transaction of the Go shape: Start makes it, End
// sends its elapsed time, Abort forgets it. Unlike Begin and End, any
// number of transactions of one tag may be in progress at once.
type Transaction struct {
	c     *Client
	tag   string
	start time.Time
	once  sync.Once
}

// Start begins a transaction named tag now. Nothing is sent until End.
func (c *Client) Start(tag string) *Transaction {
	return &Transaction{c: c, tag: tag, start: time.Now()}
}

// End sends the time since Start, once: a second End, or an End after
// Abort, is ErrNoProgress.
func (t *Transaction) End(ctx context.Context) error {
	elapsed := time.Since(t.start)
	var err error = ErrNoProgress
	t.once.Do(func() { err = t.c.common(ctx, t.tag, TypeTransact, elapsed.Seconds()) })
	return err
}

// Abort abandons the transaction; End will then send nothing.
func (t *Transaction) Abort() {
	t.once.Do(func() {})
}

// Elapsed is the time since Start.
func (t *Transaction) Elapsed() time.Duration { return time.Since(t.start) }
