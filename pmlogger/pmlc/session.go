// Package pmlc is PCP's pmlogger controller: the command language pmlc
// reads (connect, status, query, log mandatory|advisory on|off|maybe,
// new volume, sync, timezone, show loggers, ...), carried out over
// pmlogger's control protocol (pmlogger.ConnectLogger) with the names,
// descriptors and instances of the logger's pmcd, printing what PCP
// 6.0.3's pmlc prints. cmd/pmlc parses the options and runs a Session.
package pmlc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmlogger"
)

// Source is what pmlc asks of the logger's pmcd.
type Source interface {
	LookupName(ctx context.Context, name string) (pcp.PMID, error)
	Traverse(ctx context.Context, name string) ([]string, error)
	LookupDesc(ctx context.Context, pmid pcp.PMID) (pcp.Desc, error)
	GetInDom(ctx context.Context, indom pcp.InDom) ([]pmapi.Instance, error)
	Close() error
}

// Time zones for status.
const (
	tzLocal = iota
	tzLogger
	tzOther
)

// Session is one run of pmlc.
type Session struct {
	// Stdout and Stderr receive what pmlc prints (unbuffered in pmlc:
	// give the same writer to both to keep the order).
	Stdout, Stderr io.Writer
	// Echo (-e) copies the input to Stdout; Interactive (-i) prompts
	// and prints the banner.
	Echo, Interactive bool
	// Dirs are where this host's loggers are found.
	Dirs pmlogger.ClientDirs
	// OpenPMCD makes a context to the logger's pmcd (pmNewContext).
	OpenPMCD func(ctx context.Context, host string) (Source, error)
	// Version is printed in the interactive banner.
	Version string
	// Local is the local time zone (as $TZ makes it), nil for
	// time.Local.
	Local *time.Location

	// the connection and what it was made with
	host                       string // -h, default "local:"
	pid, port                  int
	isLocal, isUnix, isSockets bool
	primary                    bool
	conn                       *pmlogger.LoggerConn
	lastHost                   string
	src                        Source
	srcHost                    string

	// the current statement
	hostname    string
	hasHostname bool
	state       int32
	control     int32
	logFreq     int
	sleepMsec   int
	qaCase      int
	metricCnt   int

	tz       string
	tzType   int
	tzChange bool
	zoneName string
	loc      *time.Location

	ml metricList

	lx    *lexer
	ctx   context.Context
	sleep func(time.Duration) // time.Sleep; tests replace it
}

// Options are the connection settings of pmlc's command line.
type Options struct {
	Host       string // -h, "" for "local:"
	PID, Port  int    // pmlogger.NoPID, pmlogger.NoPort when not given
	TZ         string // -Z
	LoggerZone bool   // -z
}

// SocketPath reports whether host is a "local:" or "unix:" spec with a
// path, and which of the two it is.
func SocketPath(host string) (isLocal, isUnix, path bool) {
	prefix, rest, ok := strings.Cut(host, ":")
	if !ok {
		return false, false, false
	}
	isLocal, isUnix = prefix == "local", prefix == "unix"
	if isLocal || isUnix {
		path = strings.TrimLeft(rest, "/") != ""
	}
	return isLocal, isUnix, path
}

func (s *Session) noteURL(u string) {
	l, x, p := SocketPath(u)
	s.isLocal = s.isLocal || l
	s.isUnix = s.isUnix || x
	s.isSockets = s.isSockets || p
}

func (s *Session) errf(format string, args ...any) { fmt.Fprintf(s.Stderr, format, args...) }
func (s *Session) outf(format string, args ...any) { fmt.Fprintf(s.Stdout, format, args...) }

// yyerror reports an error at the current line and skips the rest of
// the statement.
func (s *Session) yyerror(msg string) {
	s.errf("Error [<stdin>, line %d]\n", s.lx.lineno)
	if msg != "" {
		s.errf("%s\n", msg)
	}
	s.lx.skip()
	s.lx.state = global
}

func (s *Session) yywarn(msg string) {
	s.errf("Warning [<stdin>, line %d]\n", s.lx.lineno)
	if msg != "" {
		s.errf("%s\n", msg)
	}
}

// Run connects as o asks, then reads and carries out statements from in
// until its end or quit, and returns pmlc's exit status.
func (s *Session) Run(ctx context.Context, o Options, in io.Reader) int {
	s.ctx = ctx
	if s.sleep == nil {
		s.sleep = time.Sleep
	}
	s.lx = newLexer(in)
	s.lx.errf = s.yyerror
	if s.Echo {
		s.lx.echo = s.Stdout
	}
	if s.Interactive {
		s.lx.prompt = s.Stdout
	}
	s.zoneName = "local"
	s.pid, s.port = o.PID, o.Port
	if o.LoggerZone {
		s.tzType, s.tzChange = tzLogger, true
	} else if o.TZ != "" {
		s.tz, s.tzType, s.tzChange = o.TZ, tzOther, true
	}
	s.host = o.Host
	_, _, sockPath := SocketPath(s.host)
	if s.host == "" {
		s.host = "local:"
	}
	s.primary = s.port == pmlogger.PrimaryPort || s.pid == pmlogger.PrimaryPID
	want := s.pid != pmlogger.NoPID || s.port != pmlogger.NoPort || sockPath
	var err error
	if want {
		err = s.connectLogger(s.host)
	}
	if s.Interactive {
		s.outf("Performance Co-Pilot Logger Control (pmlc), Version %s\n\n%s\n", s.Version, menu)
	}
	if want {
		s.reportConnect(err, s.host, sockPath, true)
	}
	defer func() {
		s.disconnect()
		if s.src != nil {
			s.src.Close()
			s.src = nil
		}
	}()
	for {
		s.isLocal, s.isUnix, s.isSockets = false, false, false
		s.metricCnt = 0
		s.hostname, s.hasHostname = "", false
		p := &parser{lx: s.lx, s: s}
		kind := p.statement()
		if s.lx.in == eof {
			if s.Interactive {
				s.outf("\n")
			}
			return 0
		}
		if s.metricCnt < 0 {
			continue
		}
		if quit := s.do(kind); quit {
			return 0
		}
	}
}

// reportConnect prints how a connection went, as pmlc words it at start
// (first) and for connect.
func (s *Session) reportConnect(err error, host string, sockPath, first bool) {
	if err == nil {
		if !first {
			return
		}
		switch {
		case s.primary:
			s.outf("Connected to primary pmlogger at %s\n", host)
		case sockPath:
			s.outf("Connected to pmlogger via local socket at %s\n", host)
		case s.port != pmlogger.NoPort:
			s.outf("Connected to pmlogger on port %d at %s\n", s.port, host)
		default:
			s.outf("Connected to pmlogger pid %d at %s\n", s.pid, host)
		}
		return
	}
	via := "via local socket"
	if first {
		via = "via the local socket"
	}
	switch {
	case s.primary:
		s.errf("Unable to connect to primary pmlogger at %s: ", host)
	case sockPath:
		s.errf("Unable to connect to pmlogger %s at %s: ", via, host)
	case s.port != pmlogger.NoPort:
		s.errf("Unable to connect to pmlogger on port %d at %s: ", s.port, host)
	default:
		s.errf("Unable to connect to pmlogger pid %d at %s: ", s.pid, host)
	}
	if s.stillConnected(err) {
		s.errf("%s\n", errText(err))
	}
}

// do carries out a parsed statement; it reports whether pmlc ends.
func (s *Session) do(kind stmt) bool {
	host := s.host
	if s.hasHostname {
		host = s.hostname
	}
	switch kind {
	case stShow:
		s.showLoggers(host)
	case stConnect:
		if s.isUnix && s.pid == pmlogger.NoPID && !s.isSockets {
			s.errf("The 'unix:' url requires either 'primary', a pid or a socket path")
			if s.stillConnected(nil) {
				s.errf("\n")
			}
			break
		}
		if s.isLocal && s.pid == pmlogger.NoPID && s.port == pmlogger.NoPort && !s.isSockets {
			s.errf("The 'local:' url requires either 'primary', a pid, a port or a socket path")
			if s.stillConnected(nil) {
				s.errf("\n")
			}
			break
		}
		s.primary = s.port == pmlogger.PrimaryPort || s.pid == pmlogger.PrimaryPID
		if err := s.connectLogger(host); err != nil {
			s.reportConnect(err, host, s.isSockets, false)
		} else if s.tzType == tzLogger {
			s.tzChange = true
		}
	case stDisconnect:
		s.disconnect()
		s.sleep(100 * time.Microsecond)
	case stHelp:
		s.outf("%s\n", menu)
	case stLog:
		if s.state == pdu.LogEnquire {
			s.query()
			break
		}
		if s.logFreq == -1 {
			s.logFreq = 0
		}
		if s.state == pdu.LogOn {
			if s.logFreq < 0 {
				s.errf("Logging delta (%d msec) must be positive\n", s.logFreq)
				break
			}
			if s.logFreq > maxDelta {
				s.errf("Logging delta (%d msec) cannot be bigger than %d msec\n", s.logFreq, maxDelta)
				break
			}
		}
		s.logCtl(s.control, s.state, s.logFreq)
	case stQuit:
		s.outf("Goodbye\n")
		return true
	case stStatus:
		s.status()
	case stNew:
		s.request(pdu.LogRequestNewVolume, "newvolume")
	case stTimezone:
		s.tzChange = true
	case stSync:
		s.request(pdu.LogRequestSync, "sync")
	case stSleep:
		// pmlc's nanosleep takes the milliseconds past the second
		// as microseconds
		if s.sleepMsec > 0 {
			s.sleep(time.Duration(s.sleepMsec/1000)*time.Second + time.Duration(s.sleepMsec%1000)*time.Microsecond)
		}
	case stQA:
		if s.qaCase == 0 {
			s.errf("QA Test Case deactivated\n")
		} else {
			s.errf("QA Test Case #%d activated\n", s.qaCase)
		}
		s.request(int32(100+s.qaCase), "qa")
	}
	return false
}

// maxDelta is the longest interval pmlogger's answer can carry.
const maxDelta = 0x0fffffff

func (s *Session) connectLogger(host string) error {
	s.lastHost = ""
	s.disconnect()
	if s.src != nil {
		s.src.Close()
		s.src = nil
	}
	s.srcHost = ""
	if s.pid == pmlogger.NoPID && s.port == pmlogger.PrimaryPort {
		s.pid, s.port = pmlogger.PrimaryPID, pmlogger.NoPort
	}
	c, err := pmlogger.ConnectLogger(s.ctx, host, s.pid, s.port, s.Dirs)
	if err != nil {
		return err
	}
	s.conn = c
	s.pid = c.PID
	s.lastHost = host
	return nil
}

func (s *Session) disconnect() {
	if s.conn != nil {
		s.conn.Close()
		s.conn = nil
	}
}

func (s *Session) connected() bool {
	if s.conn == nil {
		s.yyerror("Not connected to any pmlogger instance")
		return false
	}
	return true
}

// stillConnected reports a lost connection (and drops it) or a timeout;
// it returns false when it did.
func (s *Session) stillConnected(err error) bool {
	code := pcp.CodeOf(err, 0)
	if err != nil && (code == pcp.ErrIPC || code == pcp.Error(-int32(syscall.EPIPE))) {
		s.errf("Lost connection to the pmlogger instance\n")
		s.disconnect()
		return false
	}
	if err != nil && code == pcp.ErrTimeout {
		s.errf("Timeout, closed connection to the pmlogger instance\n")
		s.disconnect()
		return false
	}
	return true
}

// errText is pmErrStr of err's code.
func errText(err error) string {
	return pcp.ErrorText(pcp.CodeOf(err, pcp.ErrIPC).Code())
}

// request sends new volume, sync or a QA code and reports the answer.
func (s *Session) request(req int32, what string) {
	if !s.connected() {
		return
	}
	n, err := s.conn.Request(s.ctx, req)
	if err != nil {
		s.reportErr(err, what+" ")
		return
	}
	if req == pdu.LogRequestNewVolume {
		s.errf("New log volume %d\n", n)
	}
}

// reportErr prints a failed request's error as pmlc does; sendWhat names
// the request when it could not be sent.
func (s *Session) reportErr(err error, sendWhat string) {
	var se *pmlogger.SendError
	var de *pmlogger.DecodeError
	var re *pmlogger.RefusedError
	var ue *pmlogger.UnexpectedPDUError
	switch {
	case errors.As(err, &se):
		s.errf("Error sending %srequest to pmlogger: ", sendWhat)
		if s.stillConnected(se.Err) {
			s.errf("%s\n", errText(se.Err))
		}
	case errors.As(err, &re):
		s.errf("Error: ")
		if s.stillConnected(pcp.Error(re.Code)) {
			s.errf("%s\n", pcp.ErrorText(re.Code))
		}
	case errors.As(err, &ue):
		s.errf("Error PDU response from pmlogger %s not %s or %s as expected\n",
			pduName(ue.Type), pduName(pdu.TypeLogStatus), pduName(pdu.TypeLogStatusV2))
	case errors.As(err, &de):
		s.errf("Error decoding response from pmlogger: ")
		if s.stillConnected(de.Err) {
			s.errf("%s\n", errText(de.Err))
		}
	default:
		s.errf("Error receiving response from pmlogger: ")
		if s.stillConnected(err) {
			s.errf("%s\n", errText(err))
		}
	}
}

// showLoggers lists the loggers on host.
func (s *Session) showLoggers(host string) {
	if !pmlogger.IsLocalHost(host) {
		// PCP asks the remote pmcd for pmcd.pmlogger.port; not done here
		s.errf("Error finding pmloggers on %s: ", host)
		s.errf("%s\n", pcp.ErrorText(-int32(syscall.EHOSTUNREACH)))
		return
	}
	ports, err := pmlogger.FindLocalLoggers(s.Dirs.TmpDir, pmlogger.AllPIDs)
	if err != nil {
		s.errf("Error finding pmloggers on %s: ", host)
		if s.stillConnected(err) {
			s.errf("%s\n", errText(err))
		}
		return
	}
	if len(ports) == 0 {
		s.outf("No pmloggers running on %s\n", host)
		return
	}
	pport, primary := -1, -1
	for _, p := range ports {
		if p.PID == pmlogger.PrimaryPID {
			pport = p.Port
			break
		}
	}
	for i, p := range ports {
		if p.Port == pport {
			primary = i
			break
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The following pmloggers are running on %s:\n    ", host)
	if primary != -1 {
		fmt.Fprintf(&b, "primary (%d)", ports[primary].PID)
	}
	for i, p := range ports {
		if i != primary && p.PID != pmlogger.PrimaryPID {
			fmt.Fprintf(&b, " %d", p.PID)
		}
	}
	b.WriteByte('\n')
	s.outf("%s", b.String())
}

// loggerStatus asks for LOG_STATUS, reporting failures as pmlc does;
// sendWhat names the request in a send failure.
func (s *Session) loggerStatus(sendWhat string) (*pdu.LoggerStatus, bool) {
	st, err := s.conn.Status(s.ctx)
	if err != nil {
		s.reportErr(err, sendWhat)
		return nil, false
	}
	return st, true
}

func pduName(t pdu.Type) string { return t.String() }

// isLocalSpec is pmlc's test for a pmcd named as this host.
func isLocalSpec(h string) bool { return h == "localhost" || h == "local:" || h == "unix:" }

// connectPMCD makes the context to the logger's pmcd once per
// connection: the host the logger names, or the one pmlc reached the
// logger by when that is this host.
func (s *Session) connectPMCD() int {
	if s.src != nil {
		return 0
	}
	st, ok := s.loggerStatus("")
	if !ok {
		if s.conn == nil {
			return -1
		}
		return 0
	}
	if isLocalSpec(st.PMCDFQDN) {
		s.srcHost = s.lastHost
	} else {
		s.srcHost = st.PMCDFQDN
	}
	src, err := s.OpenPMCD(s.ctx, s.srcHost)
	if err != nil {
		s.errf("Error trying to connect to PMCD on %s: %s\n", s.srcHost, errText(err))
		return -1
	}
	s.src = src
	return 0
}

// status prints the logger's state.
func (s *Session) status() {
	if !s.connected() {
		return
	}
	st, ok := s.loggerStatus("status ")
	if !ok {
		return
	}
	if s.tzChange {
		switch s.tzType {
		case tzLocal:
			s.loc = s.localZone()
			s.zoneName = "local"
		case tzLogger:
			s.loc = loadZone(st.LoggerTimezone)
			s.zoneName = "pmlogger"
		case tzOther:
			s.loc = loadZone(s.tz)
			s.zoneName = s.tz
		}
	}
	loc := s.loc
	if loc == nil {
		loc = s.localZone()
	}
	var b strings.Builder
	b.WriteString("pmlogger ")
	if s.primary {
		b.WriteString("[primary]")
	} else {
		fmt.Fprintf(&b, "[%d]", s.pid)
	}
	fmt.Fprintf(&b, " on host %s is logging metrics from host %s\n", s.lastHost, st.PMCDHost)
	fqdn := st.PMCDFQDN
	if isLocalSpec(fqdn) {
		fqdn = st.PMCDHost
	}
	fmt.Fprintf(&b, "PMCD host        %s\n", fqdn)
	if st.State == pdu.LogStateNew {
		b.WriteString("logging hasn't started yet\n")
		s.outf("%s", b.String())
		return
	}
	line := func(label string, ts pcp.Timestamp, tail string) {
		t := time.Unix(ts.Sec, int64(ts.Nsec)).In(loc)
		fmt.Fprintf(&b, "%s%s %s %d%s\n", label, t.Format("Mon Jan _2"), t.Format("15:04:05")+fmt.Sprintf(".%09d", ts.Nsec), t.Year(), tail)
	}
	line("log started      ", st.Start, " (times in "+s.zoneName+" time)")
	line("last log entry   ", st.Last, "")
	line("current time     ", st.Now, "")
	fmt.Fprintf(&b, "log volume       %d\n", st.Vol)
	fmt.Fprintf(&b, "log size         %d\n", st.Size)
	s.outf("%s", b.String())
}

const menu = "pmlc commands\n\n" +
	"  show loggers [@<host>]             display <pid>s of running pmloggers\n" +
	"  connect _logger_id [@<host>]       connect to designated pmlogger\n" +
	"  status                             information about connected pmlogger\n" +
	"  query metric-list                  show logging state of metrics\n" +
	"  new volume                         start a new log volume\n" +
	"  disconnect                         disconnect from pmlogger\n" +
	"\n" +
	"  log { mandatory | advisory } on <interval> _metric-list\n" +
	"  log { mandatory | advisory } off _metric-list\n" +
	"  log mandatory maybe _metric-list\n" +
	"\n" +
	"  timezone local|logger|'<timezone>' change reporting timezone\n" +
	"  help                               print this help message\n" +
	"  sleep <n>                          pause for <n> milliseconds\n" +
	"  quit                               exit from pmlc\n" +
	"\n" +
	"  _logger_id   is  primary | <pid> | port <n>\n" +
	"  _metric-list is  _metric-spec | { _metric-spec ... }\n" +
	"  _metric-spec is  <metric-name> | <metric-name> [ <instance> ... ]\n"

func (s *Session) localZone() *time.Location {
	if s.Local != nil {
		return s.Local
	}
	return time.Local
}
