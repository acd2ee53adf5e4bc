package pmcd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"time"

	"github.com/gopcp/gopcp/internal/childproc"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// daemon is an agent in a process of its own, reached over a pipe (its
// stdin and stdout) or a socket. Requests and replies are PDUs; the agent
// slot's lock keeps one request at a time on the wire.
type daemon struct {
	name       string
	r          *pdu.Reader
	w          *pdu.Writer
	conn       io.Closer       // the agent's stdin, or the socket
	cmd        *exec.Cmd       // nil for a socket agent pmcd did not start
	done       <-chan struct{} // closed when cmd has been waited for
	killed     bool            // close had to kill the process
	agentFlags pdu.Flags
	// into, when not nil, is where a fetch's RESULT is decoded: storage
	// of the client being served, set under the agent's lock for one
	// call.
	into *pdu.Result
}

// stopGrace is how long a daemon agent has to exit once its input is
// closed before it is killed.
const stopGrace = time.Second

func (d *daemon) flags() pdu.Flags { return d.agentFlags }

// startPipe starts a pipe agent's command and does pmcd's side of the
// handshake within ctx, each read within timeout (pmcd's PDU timeout; a
// request's reads then have the agent timeout).
func startPipe(ctx context.Context, ac AgentConf, stderr io.Writer, dir string, timeout time.Duration) (*daemon, error) {
	cmd := exec.Command(ac.Argv[0], ac.Argv[1:]...)
	cmd.Stderr = stderr
	cmd.Dir = dir
	// os.Pipe ends support deadlines, which the PDU reader and writer use.
	in, out, done, err := childproc.StartPiped(cmd)
	if err != nil {
		return nil, err
	}
	d := &daemon{name: ac.Name, r: pdu.NewReader(newBufferedReader(pdu.Direct(out), agentReadBuffer), timeout), w: pdu.NewWriter(pdu.Direct(in)), conn: multiCloser{in, out}, cmd: cmd, done: done}
	if err := d.handshake(ctx); err != nil {
		d.close()
		return nil, err
	}
	return d, nil
}

// startSocket starts a socket agent's command, if the line has one, and
// connects to the agent, trying again until ctx is done since the agent
// needs a moment to listen; reads are bounded as startPipe's.
func startSocket(ctx context.Context, ac AgentConf, stderr io.Writer, dir string, timeout time.Duration) (*daemon, error) {
	d := &daemon{name: ac.Name}
	if len(ac.Argv) > 0 {
		d.cmd = exec.Command(ac.Argv[0], ac.Argv[1:]...)
		d.cmd.Stderr = stderr
		d.cmd.Dir = dir
		if err := childproc.Start(d.cmd); err != nil {
			return nil, err
		}
		d.done = childproc.Watch(d.cmd)
	}
	network, addr := "tcp4", net.JoinHostPort("127.0.0.1", ac.Addr)
	switch ac.Family {
	case "ipv6":
		network, addr = "tcp6", net.JoinHostPort("::1", ac.Addr)
	case "unix":
		network, addr = "unix", ac.Addr
	}
	var conn net.Conn
	var dialer net.Dialer
	for {
		var err error
		conn, err = dialer.DialContext(ctx, network, addr)
		if err == nil {
			break
		}
		select {
		case <-ctx.Done():
			d.close()
			return nil, fmt.Errorf("cannot connect to %s: %v: %w", addr, err, pcp.ErrTimeout)
		case <-time.After(100 * time.Millisecond):
		}
	}
	rw := direct(conn)
	d.r, d.w, d.conn = pdu.NewReader(newBufferedReader(rw, agentReadBuffer), timeout), pdu.NewWriter(rw), conn
	if err := d.handshake(ctx); err != nil {
		d.close()
		return nil, err
	}
	return d, nil
}

func (d *daemon) handshake(ctx context.Context) error {
	// Only d.r and d.w read and write the agent: deadlines may stay set.
	d.r.KeepDeadline, d.w.KeepDeadline = true, true
	// The first PDU is waited for as long as ctx allows (pmcd -q), not
	// the reader's per-PDU timeout: PCP's pmcd times the initial
	// exchange by -q alone, so that -q 60 waits a minute.
	perPDU := d.r.Timeout
	d.r.Timeout = 0
	v, err := pdu.AcceptAgent(ctx, d.r, d.w, int32(os.Getpid()))
	d.r.Timeout = perPDU
	if err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	d.agentFlags = v.Flags
	return nil
}

// call sends req from client from and, unless req is a notification,
// reads the agent's reply. An ERROR reply is returned as its PCP code; any
// failure of the conversation itself is an error the slot takes as the
// agent's death.
func (d *daemon) call(ctx context.Context, from int32, req pdu.Message) (pdu.Message, error) {
	if err := d.w.WriteMessage(ctx, req, from); err != nil {
		return nil, fmt.Errorf("%w: %w", errAgentLost, err)
	}
	switch req.(type) {
	case *pdu.Profile, *pdu.Attr, *pdu.Error:
		return nil, nil
	}
	return d.receive(ctx, req)
}

// receive reads the agent's reply to req, which has been sent, as call
// does.
func (d *daemon) receive(ctx context.Context, req pdu.Message) (pdu.Message, error) {
	b, err := d.r.ReadPDU(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errAgentLost, err)
	}
	var m pdu.Message
	if h, _ := pdu.ParseHeader(b); d.into != nil && h.Type == pdu.TypeResult {
		err = d.into.Decode(b)
		m = d.into
	} else {
		m, err = pdu.Decode(b)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errAgentLost, err)
	}
	if e, ok := m.(*pdu.Error); ok && req.PDUType() != pdu.TypeResult {
		// An ERROR answer of 0 where a reply was due is PCP's
		// PM_ERR_GENERIC; the agent is still in step.
		if e.Code >= 0 {
			return nil, pcp.ErrGeneric
		}
		return nil, pcp.Error(e.Code)
	}
	if e, ok := m.(*pdu.Error); ok && e.Code < 0 {
		return nil, pcp.Error(e.Code)
	}
	if !pdu.Answers(req.PDUType(), m.PDUType()) {
		return nil, fmt.Errorf("%w: %v answered with a %T PDU: %w", errAgentLost, req.PDUType(), m, pcp.ErrIPC)
	}
	return m, nil
}

// close ends the conversation and the agent's process: closing its input
// asks it to exit, and it is killed if it has not within stopGrace.
func (d *daemon) close() {
	if d.conn != nil {
		d.conn.Close()
	}
	if d.cmd == nil || d.done == nil {
		return
	}
	d.killed = childproc.Stop(d.cmd, d.done, stopGrace)
}

// errAgentLost marks failures of the conversation with an agent.
var errAgentLost = errors.New("pmcd: lost contact with agent")

type multiCloser []io.Closer

func (m multiCloser) Close() error {
	var first error
	for _, c := range m {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
