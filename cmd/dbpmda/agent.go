package main

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/internal/childproc"
	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// conn is the open agent: a daemon on a pipe or socket, or a Go agent
// from the registry served in-process over a pipe, the way pmcd runs it.
type conn struct {
	name string // as "status" shows it
	kind string // "daemon" or "dso"
	cmd  *exec.Cmd
	r    *pdu.Reader
	w    *pdu.Writer
	c    io.Closer
	out  io.Closer       // a daemon's output, closed once it has ended
	done <-chan struct{} // the agent has ended: an in-process one's Serve has returned, a daemon been waited for
	ver  int             // the agent's protocol version; 0 unknown
	fd   int             // the descriptor PCP's dbpmda would read from, for messages
}

// handshake waits for the agent's credentials and answers them with
// dbpmda's (version 2, no features), as dbpmda's version exchange does;
// failure only warns, leaving the agent's version unknown.
func (s *session) handshake(c *conn) {
	ctx, cancel := context.WithTimeout(context.Background(), s.credsTimeout)
	defer cancel()
	c.r.Timeout = s.credsTimeout
	defer func() { c.r.Timeout = 0 }()
	warn := func() {
		s.errorf("Warning: no version exchange with PMDA %s after %d secs\n", c.name, int(s.credsTimeout/time.Second))
	}
	b, err := c.r.ReadPDU(ctx)
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		s.errorf("pmdaversion: expecting PDU_CREDS, got EOF\n")
		warn()
		return
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, pcp.ErrTimeout):
		s.errorf("__pmGetPDU(%d): %s\n", c.fd, pcp.ErrorText(int32(pcp.ErrTimeout)))
		warn()
		return
	case err != nil:
		s.errorf("__pmGetPDU(%d): %s\n", c.fd, pcp.TextOf(err))
		warn()
		return
	}
	m, err := pdu.Decode(b)
	creds, ok := m.(*pdu.Creds)
	if err != nil || !ok {
		h, _ := pdu.ParseHeader(b)
		s.errorf("pmdaversion: expecting PDU_CREDS, got PDU type %s\n", h.Type)
		warn()
		return
	}
	for _, cr := range creds.Creds {
		if v, ok := cr.Version(); ok {
			c.ver = int(v.Version)
		}
	}
	if c.ver != 0 {
		if err := c.w.WriteMessage(ctx, pdu.VersionCreds(0), int32(os.Getpid())); err != nil {
			s.errorf("Warning: version exchange failed for PMDA %s: %s\n", c.name, pcp.TextOf(err))
		}
	}
}

// openPipe starts a daemon agent with its standard input and output as
// the pipe to it; its standard error is ours.
func (s *session) openPipe(path string, args []string) {
	if _, err := os.Stat(path); err != nil {
		s.errorf("openpmda: stat %s failed: %s\n", path, errnoText(err))
		return
	}
	s.close()
	base := path
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' {
			base = path[i+1:]
			break
		}
	}
	line := "Start " + base + " PMDA: " + path
	for _, a := range args {
		line += " " + a
	}
	s.printf("%s\n", line)
	cmd := exec.Command(path, args...)
	cmd.Stderr = s.stderr
	in, out, done, err := childproc.StartPiped(cmd)
	if err != nil {
		s.errorf("openpmda: create process failed: %s\n", errnoText(err))
		return
	}
	c := &conn{name: path, kind: "daemon", cmd: cmd, r: pdu.NewReader(out, cli.RequestTimeout()), w: pdu.NewWriter(in), c: in, out: out, done: done, fd: freeFD(2)}
	s.conn = c
	s.resetProfile()
	agentConnected()
	s.handshake(c)
}

// openSocket connects to a daemon agent waiting on a Unix socket or a
// loopback TCP port.
func (s *session) openSocket(network, addr, label string) {
	if network == "unix" {
		if _, err := os.Stat(addr); err != nil {
			s.errorf("opensocket: %s: %s\n", addr, errnoText(err))
			return
		}
	}
	s.close()
	nc, err := net.Dial(network, addr)
	if err != nil {
		s.errorf("opensocket: connect: %s\n", errnoText(err))
		return
	}
	if network == "unix" {
		s.printf("Connect to PMDA on socket %s\n", addr)
	} else {
		s.printf("Connect to PMDA on %s\n", label)
		addr = label
	}
	c := &conn{name: addr, kind: "daemon", r: pdu.NewReader(nc, cli.RequestTimeout()), w: pdu.NewWriter(nc), c: nc, fd: freeFD(0)}
	s.conn = c
	s.resetProfile()
	agentConnected()
	s.handshake(c)
}

// openDSO runs a Go agent from the registry, named by the entry point a
// pmcd.conf dso line would give; the library path is only shown.
func (s *session) openDSO(path, entry string, domain int32) {
	// PCP's dbpmda checks that the library can be opened first.
	if f, err := os.Open(path); err != nil {
		s.errorf("opendso: %s: %s\n", path, errnoText(err))
		return
	} else {
		f.Close()
	}
	newAgent, ok := pmda.Lookup(entry)
	if !ok {
		s.printf("Error: couldn't find init function \"%s\" in DSO \"%s\"\n", entry, path)
		return
	}
	agent, err := newAgent(uint32(domain))
	if err != nil {
		s.errorf("Error: %s: %v\n", entry, err)
		return
	}
	s.close()
	a, b := net.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		agent.Serve(context.Background(), b, b)
		b.Close()
	}()
	c := &conn{name: path, kind: "dso", r: pdu.NewReader(a, cli.RequestTimeout()), w: pdu.NewWriter(a), c: a, done: done}
	s.conn = c
	s.resetProfile()
	s.handshake(c)
}

// stopGrace is how long a daemon agent has to exit once its input is
// closed before it is killed.
const stopGrace = 2 * time.Second

// close ends the connection as pmcd ends one: an error PDU saying the
// client is gone, then the pipe closed.
func (s *session) close() {
	c := s.conn
	if c == nil {
		return
	}
	s.conn = nil
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	c.w.WriteMessage(ctx, &pdu.Error{Code: int32(pcp.ErrNotConn)}, 0)
	cancel()
	c.c.Close()
	if c.cmd != nil {
		// Its output stays open until it has ended, so that an answer it
		// writes on its way out does not meet a closed pipe (SIGPIPE).
		childproc.Stop(c.cmd, c.done, stopGrace)
		c.out.Close()
	}
	if c.done != nil {
		<-c.done
	}
}

// call sends one request and reads the answer, PDU errors included.
// dead reports an agent gone; otherwise err is what the answer said.
func (s *session) call(m pdu.Message) (reply pdu.Message, err error) {
	if err := s.send(m); err != nil {
		return nil, err
	}
	return s.read()
}

// send writes a request. Writing to an agent that has gone is not an
// error here: as with PCP's dbpmda, the failure shows when the answer
// is read.
func (s *session) send(m pdu.Message) error {
	s.op = dsoOp(m)
	err := s.conn.w.WriteMessage(context.Background(), m, 0)
	if errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed) || errors.Is(err, io.ErrClosedPipe) {
		return nil
	}
	return err
}

// errDead is an agent that closed its end: PCP's "PDU empty".
var errDead = errors.New("PDU empty, PMDA may have died")

func (s *session) read() (pdu.Message, error) {
	b, err := s.conn.r.ReadPDU(context.Background())
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) {
			return nil, errDead
		}
		return nil, err
	}
	return pdu.Decode(b)
}

// errnoText is the C library's text for a system error.
func errnoText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *net.OpError
	if errors.As(err, &le) {
		err = le.Err
	}
	var se *os.SyscallError
	if errors.As(err, &se) {
		err = se.Err
	}
	return pcp.TextOf(err)
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }

// dsoOp is the callback of a DSO agent's dispatch table a request goes
// to, as PCP's dbpmda names it in "Error: DSO op() failed".
func dsoOp(m pdu.Message) string {
	switch m.(type) {
	case *pdu.DescReq:
		return "desc"
	case *pdu.InstanceReq:
		return "instance"
	case *pdu.Fetch:
		return "fetch"
	case *pdu.Profile:
		return "profile"
	case *pdu.TextReq:
		return "text"
	case *pdu.Result:
		return "store"
	case *pdu.LabelReq:
		return "label"
	case *pdu.PMNSIDs:
		return "name"
	case *pdu.PMNSNames:
		return "pmid"
	case *pdu.PMNSChild, *pdu.PMNSTraverse:
		return "children"
	}
	return "attribute"
}
