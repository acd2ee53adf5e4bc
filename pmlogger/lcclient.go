package pmlogger

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Symbolic pids and ports of pmlc's requests (PM_LOG_* in libpcp).
const (
	PrimaryPID  = 0  // the primary logger
	AllPIDs     = -1 // every logger (show loggers)
	NoPID       = -2 // no pid given
	PrimaryPort = 0  // the primary logger's port
	NoPort      = -2 // no port given
)

// ClientDirs are where a pmlc client looks for loggers on this host:
// PCP_RUN_DIR (the Unix sockets), PCP_TMP_DIR (the port map files) and
// the user's home (~/.pcp/run, the sockets of loggers not run by PCP's
// services). Timeout bounds each wait for the logger, 0 for none
// (PMLOGGER_REQUEST_TIMEOUT's default).
type ClientDirs struct {
	RunDir, TmpDir, Home string
	Timeout              time.Duration
}

// LoggerConn is pmlc's connection to one pmlogger's control socket.
type LoggerConn struct {
	conn    net.Conn
	r       *pdu.Reader
	w       *pdu.Writer
	timeout time.Duration
	// PID is the logger's process id, from its acknowledgement.
	PID int
	// Version is the control protocol version in use: the lower of the
	// logger's and ours.
	Version int
}

// ConnectLogger reaches a pmlogger as libpcp's __pmConnectLogger does:
// "local:PATH" or "unix:PATH" names a socket; "local:" or "unix:" with a
// pid its socket under RunDir (then the user's ~/.pcp/run); any other
// spec is a host, reached on port, or on the port its port map file
// gives for pid (only this host's loggers are looked up here). When a
// "local:" spec fails with a pid or port, "localhost" is tried. pid may
// be PrimaryPID; an acknowledgement from another process than the pid
// asked for is refused (ECONNREFUSED). The connection announces the
// protocol version in CREDS, as pmlc does.
func ConnectLogger(ctx context.Context, spec string, pid, port int, dirs ClientDirs) (*LoggerConn, error) {
	if pid == NoPID && port == PrimaryPort {
		pid, port = PrimaryPID, NoPort
	}
	for {
		c, err := connectOnce(ctx, spec, pid, port, dirs)
		if err == nil {
			return c, nil
		}
		if strings.HasPrefix(spec, "local:") && (port != NoPort || pid != NoPID) {
			spec = "localhost"
			continue
		}
		return nil, err
	}
}

func connectOnce(ctx context.Context, spec string, pid, port int, dirs ClientDirs) (*LoggerConn, error) {
	var conn net.Conn
	var err error
	prefix, rest, isURL := strings.Cut(spec, ":")
	switch {
	case isURL && (prefix == "local" || prefix == "unix"):
		switch {
		case rest != "":
			conn, err = dialUnix(ctx, rest, dirs.Timeout)
		case pid != NoPID:
			conn, err = dialUnix(ctx, LoggerSocket(dirs.RunDir, pid), dirs.Timeout)
			if err != nil && dirs.Home != "" {
				conn, err = dialUnix(ctx, userSocketPath(dirs.Home, pid), dirs.Timeout)
			}
		default:
			// libpcp's status here is what its socket creation left: none.
			return nil, pcp.Error(-int32(syscall.ECONNREFUSED))
		}
	case isURL:
		// a spec with some other prefix is no host libpcp reaches
		return nil, pcp.Error(-int32(syscall.ECONNREFUSED))
	default:
		if pid == AllPIDs {
			return nil, pcp.Error(-int32(syscall.ECONNREFUSED))
		}
		if port == NoPort {
			local, err := localHost(spec)
			if err != nil {
				return nil, err
			}
			if !local {
				// PCP asks that host's pmcd (pmcd.pmlogger.port): not done
				return nil, pcp.Error(-int32(syscall.ECONNREFUSED))
			}
			ports, ferr := FindLocalLoggers(dirs.TmpDir, pid)
			if ferr != nil {
				return nil, ferr
			}
			if len(ports) != 1 {
				return nil, pcp.Error(-int32(syscall.ECONNREFUSED))
			}
			port = ports[0].Port
		}
		conn, err = dialTCP(ctx, spec, port, dirs.Timeout)
	}
	if err != nil {
		return nil, err
	}
	c := &LoggerConn{conn: conn, r: pdu.NewReader(conn, dirs.Timeout), w: pdu.NewWriter(conn), timeout: dirs.Timeout}
	if err := c.handshake(ctx, pid); err != nil {
		conn.Close()
		return nil, err
	}
	return c, nil
}

// LoggerSocket is the Unix socket of the logger with pid under runDir,
// or the primary's link.
func LoggerSocket(runDir string, pid int) string {
	if pid == PrimaryPID {
		return filepath.Join(runDir, "pmlogger.primary.socket")
	}
	return LocalSocketPath(runDir, pid)
}

func dialUnix(ctx context.Context, path string, timeout time.Duration) (net.Conn, error) {
	path = "/" + strings.TrimLeft(path, "/")
	d := net.Dialer{Timeout: timeout}
	c, err := d.DialContext(ctx, "unix", path)
	return c, dialErr(err)
}

func dialTCP(ctx context.Context, host string, port int, timeout time.Duration) (net.Conn, error) {
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil || len(addrs) == 0 {
		return nil, pcp.Error(-int32(syscall.EHOSTUNREACH))
	}
	var last error
	for _, a := range addrs {
		d := net.Dialer{Timeout: timeout}
		c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(a.IP.String(), strconv.Itoa(port)))
		if err == nil {
			return c, nil
		}
		last = dialErr(err)
	}
	return nil, last
}

// dialErr turns a dial failure into the negated errno libpcp returns.
func dialErr(err error) error {
	if err == nil {
		return nil
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return pcp.Error(-int32(errno))
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return pcp.Error(-int32(syscall.ETIMEDOUT))
	}
	return pcp.Error(-int32(syscall.ECONNREFUSED))
}

// handshake reads the logger's acknowledgement (an ERROR PDU holding its
// protocol version, sent from its pid, or a refusal) and answers with
// CREDS naming the version chosen.
func (c *LoggerConn) handshake(ctx context.Context, pid int) error {
	b, err := c.read(ctx)
	if err != nil {
		return err
	}
	m, err := pdu.Decode(b)
	if err != nil {
		return pcp.ErrIPC
	}
	e, ok := m.(*pdu.Error)
	if !ok {
		return pcp.ErrIPC
	}
	h, _ := pdu.ParseHeader(b)
	from := int(h.From)
	if e.Code < 0 {
		return pcp.Error(e.Code)
	}
	if pid != NoPID && pid != PrimaryPID && from != pid {
		return pcp.Error(-int32(syscall.ECONNREFUSED))
	}
	c.PID = from
	c.Version = int(min(e.Code, logPDUVersion))
	creds := &pdu.Creds{Creds: []pdu.Cred{pdu.VersionCred{Version: uint8(c.Version)}.Cred()}}
	return c.send(ctx, creds, int32(os.Getpid()))
}

// read takes the next PDU, mapping end of file and a timeout to the
// codes pmlc reports them with.
func (c *LoggerConn) read(ctx context.Context) ([]byte, error) {
	b, err := c.r.ReadPDU(ctx)
	switch {
	case err == nil:
		return b, nil
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return nil, pcp.ErrIPC
	case errors.Is(err, pcp.ErrTimeout) || errors.Is(err, os.ErrDeadlineExceeded):
		return nil, pcp.ErrTimeout
	case errors.Is(err, syscall.ECONNRESET):
		return nil, pcp.ErrIPC
	}
	return nil, pcp.CodeOf(err, pcp.ErrIPC)
}

// send writes m from from: pmlc's own pid in CREDS, 0 (libpcp's
// FROM_ANON) in its requests.
func (c *LoggerConn) send(ctx context.Context, m pdu.Message, from int32) error {
	err := c.w.WriteMessage(ctx, m, from)
	if err == nil {
		return nil
	}
	if errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) {
		return pcp.Error(-int32(syscall.EPIPE))
	}
	return pcp.CodeOf(err, pcp.ErrIPC)
}

// Close ends the connection.
func (c *LoggerConn) Close() error { return c.conn.Close() }

// Status asks for the logger's LOG_STATUS. A refusal (an ERROR PDU) is
// returned as *RefusedError; any other PDU as *UnexpectedPDUError.
func (c *LoggerConn) Status(ctx context.Context) (*pdu.LoggerStatus, error) {
	if err := c.send(ctx, &pdu.LogRequest{Request: pdu.LogRequestStatus}, 0); err != nil {
		return nil, &SendError{Err: err}
	}
	b, err := c.read(ctx)
	if err != nil {
		return nil, err
	}
	m, err := pdu.Decode(b)
	if err != nil {
		return nil, &DecodeError{Err: pcp.CodeOf(err, pcp.ErrIPC)}
	}
	switch m := m.(type) {
	case *pdu.LogStatus:
		return &m.LoggerStatus, nil
	case *pdu.LogStatusV2:
		return &m.LoggerStatus, nil
	case *pdu.Error:
		return nil, &RefusedError{Code: m.Code}
	}
	return nil, &UnexpectedPDUError{Type: m.PDUType()}
}

// Request sends LOG_REQUEST req (new volume, sync, a QA code) and
// returns the code of the ERROR PDU that answers it: the new volume for
// new volume, 0 for sync. A negative code is *RefusedError.
func (c *LoggerConn) Request(ctx context.Context, req int32) (int32, error) {
	if err := c.send(ctx, &pdu.LogRequest{Request: req}, 0); err != nil {
		return 0, &SendError{Err: err}
	}
	b, err := c.read(ctx)
	if err != nil {
		return 0, err
	}
	if h, _ := pdu.ParseHeader(b); h.Type != pdu.TypeError {
		return 0, pcp.ErrIPC
	}
	var e pdu.Error
	if err := e.Decode(b); err != nil {
		return 0, pcp.ErrIPC
	}
	if e.Code < 0 {
		return 0, &RefusedError{Code: e.Code}
	}
	return e.Code, nil
}

// Control sends LOG_CONTROL (an enquiry or a change, __pmControlLog) for
// sets and returns the logger's RESULT. An ERROR PDU's code is returned
// as a pcp.Error, as libpcp returns it.
func (c *LoggerConn) Control(ctx context.Context, control, state, delta int32, sets []pcp.ValueSet) (*pcp.Result, error) {
	if len(sets) < 1 {
		return nil, pcp.ErrTooSmall
	}
	if delta < 0 || (control == pdu.LogAdvisory && state == pdu.LogMaybe) {
		return nil, pcp.Error(-int32(syscall.EINVAL))
	}
	if err := c.send(ctx, &pdu.LogControl{Control: control, State: state, Delta: delta, Sets: sets}, 0); err != nil {
		return nil, err
	}
	b, err := c.read(ctx)
	if err != nil {
		return nil, err
	}
	switch h, _ := pdu.ParseHeader(b); h.Type {
	case pdu.TypeResult:
		var res pcp.Result
		if err := pdu.DecodeResultInto(&res, b); err != nil {
			return nil, pcp.CodeOf(err, pcp.ErrIPC)
		}
		return &res, nil
	case pdu.TypeError:
		var e pdu.Error
		if err := e.Decode(b); err != nil {
			return nil, pcp.ErrIPC
		}
		return nil, pcp.Error(e.Code)
	}
	return nil, pcp.ErrIPC
}

// SendError is a request that could not be sent.
type SendError struct{ Err error }

func (e *SendError) Error() string { return e.Err.Error() }
func (e *SendError) Unwrap() error { return e.Err }

// DecodeError is an answer that does not decode.
type DecodeError struct{ Err error }

func (e *DecodeError) Error() string { return e.Err.Error() }
func (e *DecodeError) Unwrap() error { return e.Err }

// RefusedError is the logger's ERROR PDU in place of an answer.
type RefusedError struct{ Code int32 }

func (e *RefusedError) Error() string { return pcp.ErrorText(e.Code) }
func (e *RefusedError) Unwrap() error { return pcp.Error(e.Code) }

// UnexpectedPDUError is an answer of the wrong type.
type UnexpectedPDUError struct{ Type pdu.Type }

func (e *UnexpectedPDUError) Error() string { return "unexpected PDU " + e.Type.String() }
