package pmlogger

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi"
)

// logPDUVersion is LOG_PDU_VERSION, the control protocol version
// pmlogger announces to pmlc.
const logPDUVersion = 3

// PortBase is where pmlogger starts looking for a free control port
// (PMLOGGER_PORT overrides it).
const PortBase = 4330

// ControlEnv is what PCP's pmlogger takes from its environment for its
// control port: PMLOGGER_PORT's value (nil when unset) and
// PMLOGGER_LOCAL's. The zero value is neither set; cmd/pmlogger reads
// the variables.
type ControlEnv struct {
	Port  *string
	Local string
}

// ListenControl opens pmlogger's TCP control port as PCP's pmlogger does:
// the first free port from env.Port (default PortBase) upwards, on
// every address, or only the loopback one (and only the first port) when
// env.Local is a non-zero number. warn receives the complaint about a
// bad PMLOGGER_PORT.
func ListenControl(env ControlEnv, warn func(string)) (net.Listener, int, error) {
	base := PortBase
	if env.Port != nil {
		v := *env.Port
		n, err := strconv.ParseInt(v, 0, 32)
		if err != nil || n < 0 {
			if warn != nil {
				warn(fmt.Sprintf("GetPorts: ignored bad PMLOGGER_PORT = '%s'\n", v))
			}
		} else {
			base = int(n)
		}
	}
	host := ""
	local := false
	if v := env.Local; v != "" {
		if n, _ := strconv.Atoi(v); n != 0 {
			host, local = "127.0.0.1", true
		}
	}
	for port := base; port < 65536; port++ {
		ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
		if err == nil {
			return ln, port, nil
		}
		if !isAddrInUse(err) || local {
			return nil, 0, fmt.Errorf("pmlogger: control port %d: %w", port, err)
		}
	}
	return nil, 0, errors.New("pmlogger: no free control port")
}

func isAddrInUse(err error) bool {
	var se *os.SyscallError
	return errors.As(err, &se) && se.Err.Error() == "address already in use"
}

// do runs f in Run's goroutine between samples, so that control requests
// see and change the Logger without locks. It fails when ctx ends first
// (Run not running).
func (l *Logger) do(ctx context.Context, f func()) error {
	done := make(chan struct{})
	select {
	case l.ctl <- func() { f(); close(done) }:
	case <-ctx.Done():
		return ctx.Err()
	}
	<-done
	return nil
}

// SetConnSpec records how pmcd is reached (pmlogger's -h), which LOG_STATUS
// reports in its FQDN slot.
func (l *Logger) SetConnSpec(s string) { l.connSpec = s }

// status is the LOG_STATUS answer, taken in Run's goroutine.
func (l *Logger) status() pdu.LoggerStatus {
	lab := l.w.Label()
	data, _ := l.w.Offsets()
	st := pdu.LoggerStatus{
		Last:           l.lastStamp,
		Now:            pcp.TimestampOf(time.Now()),
		State:          pdu.LogStateNew,
		Vol:            int32(l.w.Volume()),
		Size:           data,
		PMCDHost:       lab.Hostname,
		PMCDFQDN:       l.connSpec,
		PMCDTimezone:   lab.Timezone,
		LoggerTimezone: l.localZone(),
	}
	if l.w.Started() {
		st.State = pdu.LogStateInit
		st.Start = lab.Start
	}
	return st
}

// ServeControl answers pmlc on ln until ctx ends. As PCP's pmlogger, it
// serves one client at a time over all its control sockets (another is
// told EADDRINUSE); a client is judged by the configuration's [access]
// section (Options.Access) and, on a Unix socket, must be root or this
// process's user; an accepted one gets the acknowledgement carrying the
// protocol version and this process's id, then sends its CREDS, then
// LOG_REQUEST (status, new volume, sync) and LOG_CONTROL PDUs. Requests
// run between samples in Run's goroutine; problems and log requests go
// to the log. ServeControl may be called for several listeners.
func (l *Logger) ServeControl(ctx context.Context, ln net.Listener) {
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		if !l.busy.CompareAndSwap(false, true) {
			w := pdu.NewWriter(c)
			w.WriteMessage(ctx, &pdu.Error{Code: -int32(syscall.EADDRINUSE)}, 0)
			c.Close()
			continue
		}
		go func() {
			defer l.busy.Store(false)
			defer c.Close()
			l.serveClient(ctx, c)
		}()
	}
}

func (l *Logger) serveClient(ctx context.Context, c net.Conn) {
	r := pdu.NewReader(c, l.requestTimeout())
	r.IdleWait = true
	w := pdu.NewWriter(c)
	id := access.ClientOf(c)
	deny := 0
	if acc := l.opt.Access; acc != nil {
		d, err := acc.AdmitHost(id)
		if err != nil {
			w.WriteMessage(ctx, &pdu.Error{Code: pcp.CodeOf(err, pcp.ErrIPC).Code()}, 0)
			return
		}
		defer acc.ReleaseHost(id)
		deny = d
	}
	if id.Unix && !localCredsOK(id) {
		w.WriteMessage(ctx, &pdu.Error{Code: int32(pcp.ErrPermission)}, 0)
		return
	}
	host := clientHost(c)
	ack := int32(logPDUVersion)
	if l.opt.PMLCVersion != 0 {
		ack = int32(l.opt.PMLCVersion)
	}
	pid := int32(os.Getpid())
	if err := w.WriteMessage(ctx, &pdu.Error{Code: ack}, pid); err != nil {
		return
	}
	version := 2
	for {
		b, err := r.ReadPDU(ctx)
		if err != nil {
			return
		}
		m, err := pdu.Decode(b)
		if err != nil {
			w.WriteMessage(ctx, &pdu.Error{Code: int32(pcp.ErrIPC)}, 0)
			return
		}
		switch m := m.(type) {
		case *pdu.Creds:
			for _, cr := range m.Creds {
				if v, ok := cr.Version(); ok {
					version = int(v.Version)
				}
			}
		case *pdu.LogRequest:
			if err := l.request(ctx, w, m.Request, version, deny); err != nil {
				return
			}
		case *pdu.LogControl:
			if err := l.control(ctx, w, m, host, deny); err != nil {
				return
			}
		default:
			l.do(ctx, func() { fmt.Fprintf(l.log, "client_req: bad PDU type 0x%x\n", uint32(m.PDUType())) })
			w.WriteMessage(ctx, &pdu.Error{Code: int32(pcp.ErrIPC)}, 0)
			return
		}
	}
}

// localCredsOK reports whether a Unix-socket client may talk to this
// logger: root or the user this process runs as, as PCP allows.
func localCredsOK(id access.ClientID) bool {
	if !id.HasCreds {
		return false
	}
	return id.UID == 0 || int(id.UID) == os.Getuid() || int(id.UID) == os.Geteuid()
}

// hostNameMax is MAXHOSTNAMELEN, the size of PCP's pmlogger's buffer for
// a client's name, its terminating NUL included.
const hostNameMax = 64

// clientHost names a client in the log as PCP's pmlogger does: the host
// name of its address (the address itself when it has none or a longer
// one than the buffer holds), or the socket's path for a Unix-socket
// client; an address or path longer than the buffer is cut to fit it
// (seen with a bed under a long TMPDIR: PCP's log ended the path at
// ".socke").
func clientHost(c net.Conn) string {
	name := ""
	switch a := c.RemoteAddr().(type) {
	case *net.TCPAddr:
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		name = a.IP.String()
		if names, err := net.DefaultResolver.LookupAddr(ctx, name); err == nil && len(names) > 0 {
			if n := strings.TrimSuffix(names[0], "."); len(n) <= hostNameMax-1 {
				name = n
			}
		}
	default:
		if a, ok := c.LocalAddr().(*net.UnixAddr); ok {
			name = a.Name
		}
	}
	if len(name) > hostNameMax-1 {
		name = name[:hostNameMax-1]
	}
	return name
}

func (l *Logger) request(ctx context.Context, w *pdu.Writer, req int32, version, deny int) error {
	switch req {
	case pdu.LogRequestStatus:
		var st pdu.LoggerStatus
		if err := l.do(ctx, func() { st = l.status() }); err != nil {
			return err
		}
		if version >= logPDUVersion {
			return w.WriteMessage(ctx, &pdu.LogStatus{LoggerStatus: st}, 0)
		}
		return w.WriteMessage(ctx, &pdu.LogStatusV2{LoggerStatus: st}, 0)
	case pdu.LogRequestNewVolume:
		if deny&OpMandatory != 0 {
			return w.WriteMessage(ctx, &pdu.Error{Code: int32(pcp.ErrPermission)}, 0)
		}
		var vol int
		if err := l.do(ctx, func() { l.newVolume("pmlc request"); vol = l.w.Volume() }); err != nil {
			return err
		}
		return w.WriteMessage(ctx, &pdu.Error{Code: int32(vol)}, 0)
	case pdu.LogRequestSync:
		return w.WriteMessage(ctx, &pdu.Error{Code: 0}, 0)
	case pdu.LogRequestQAOff:
		if deny&OpMandatory != 0 {
			return w.WriteMessage(ctx, &pdu.Error{Code: int32(pcp.ErrPermission)}, 0)
		}
		return w.WriteMessage(ctx, &pdu.Error{Code: 0}, 0)
	}
	l.do(ctx, func() { fmt.Fprintf(l.log, "do_request: bad request type %d\n", req) })
	return w.WriteMessage(ctx, &pdu.Error{Code: int32(pcp.ErrIPC)}, 0)
}

// localZone is this host's time zone as PCP names it (the logger's zone in
// LOG_STATUS).
func (l *Logger) localZone() string {
	return pmapi.LocalZone(l.opt.TZ)
}

// requestTimeout is Options.RequestTimeout as a Reader takes it.
func (l *Logger) requestTimeout() time.Duration {
	switch t := l.opt.RequestTimeout; {
	case t == 0:
		return pdu.DefaultTimeout
	case t < 0:
		return 0
	default:
		return t
	}
}
