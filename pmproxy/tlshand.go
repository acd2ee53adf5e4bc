package pmproxy

import (
	"bufio"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/httpd"
	"github.com/gopcp/gopcp/internal/childproc"
)

// TLSCompanion is the program that does pmproxy's TLS (cmd/pmproxytls):
// pmproxy runs it only when TLS is configured, so that a pmproxy without
// TLS links and maps no crypto/tls (TestNoNetHTTP).
const TLSCompanion = "pmproxytls"

// FindTLSCompanion is the companion beside pmproxy's executable, else
// in $PATH.
func FindTLSCompanion() (string, error) {
	self, err := os.Executable()
	if err == nil {
		p := filepath.Join(filepath.Dir(self), TLSCompanion)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath(TLSCompanion); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("TLS is configured and %s is neither beside %s nor in $PATH", TLSCompanion, self)
}

// TLSRelay is a running companion: a TLS connection pmproxy accepts is
// handed to it with its first byte (SCM_RIGHTS over a Unix socket), with
// one end of a new socket pair; the companion does the handshake and
// relays the plaintext to that end, and pmproxy serves the other end as
// an ordinary connection, with every bound and the event loop as they
// are for any other.
type TLSRelay struct {
	cmd     *exec.Cmd
	ctrl    *net.UnixConn
	exited  <-chan struct{}
	logged  chan struct{}
	dead    atomic.Bool
	closing atomic.Bool
}

// StartTLSRelay starts the companion at path with s and waits for it to
// load its files. What it says is logged by logger as pmproxy's own
// lines ("Info: ... setup", or the error PCP's pmproxy logs before it
// exits); a companion that does not start or fails its setup is an
// error (logged), for pmproxy to end on as PCP's does. Once running, its death is
// logged and TLS connections are refused from then on.
func StartTLSRelay(path string, s *TLSSettings, logger *log.Logger) (*TLSRelay, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	child := os.NewFile(uintptr(fds[1]), "pmproxytls-control")
	own := os.NewFile(uintptr(fds[0]), "pmproxytls-control")
	nc, err := net.FileConn(own)
	own.Close()
	if err != nil {
		child.Close()
		return nil, err
	}
	ctrl := nc.(*net.UnixConn)
	cmd := exec.Command(path, s.args()...)
	cmd.ExtraFiles = []*os.File{child}
	cmd.Stderr = os.Stderr
	// the companion ends with pmproxy, however pmproxy ends
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	// a pipe of our own, not StdoutPipe's, which Wait (in Watch) may
	// close before the companion's last line is read
	out, w, err := os.Pipe()
	if err == nil {
		cmd.Stdout = w
		err = childproc.Start(cmd)
		w.Close()
	}
	child.Close()
	if err != nil {
		if out != nil {
			out.Close()
		}
		ctrl.Close()
		logger.Printf("Error: pmproxy: %s: %v", TLSCompanion, err)
		return nil, err
	}
	r := &TLSRelay{cmd: cmd, ctrl: ctrl, exited: childproc.Watch(cmd), logged: make(chan struct{})}
	lines := bufio.NewScanner(out)
	ready, said := false, false
	for !ready && lines.Scan() {
		if ready = lines.Text() == "ready"; !ready {
			logger.Print(lines.Text())
			said = true
		}
	}
	if !ready {
		ctrl.Close()
		// ended, or said something no line holds: not to be waited for
		_ = cmd.Process.Kill()
		<-r.exited
		out.Close()
		err := fmt.Errorf("%s ended before it was ready (%v)", TLSCompanion, cmd.ProcessState)
		if !said {
			logger.Printf("Error: pmproxy: %v", err)
		}
		return nil, err
	}
	go func() {
		defer close(r.logged)
		defer out.Close()
		for lines.Scan() {
			logger.Print(lines.Text())
		}
		<-r.exited
		r.dead.Store(true)
		if !r.closing.Load() {
			logger.Printf("Error: pmproxy: TLS companion %s ended (%v): TLS connections are refused from now on", TLSCompanion, cmd.ProcessState)
		}
	}()
	return r, nil
}

// args are the companion's options for the settings.
func (s *TLSSettings) args() []string {
	var a []string
	for _, o := range []struct{ name, value string }{
		{"-cert", s.CertFile}, {"-key", s.KeyFile}, {"-ca", s.CAFile}, {"-cadir", s.CADir},
		{"-ciphers", s.Ciphers}, {"-suites", s.CipherSuites}, {"-verify", s.VerifyClients},
	} {
		if o.value != "" {
			a = append(a, o.name, o.value)
		}
	}
	return a
}

// Close ends the companion (its control socket closed, killed if it
// has not ended after 5 s) and waits for it.
func (r *TLSRelay) Close() {
	r.closing.Store(true)
	r.ctrl.Close()
	childproc.Stop(r.cmd, r.exited, 5*time.Second)
	<-r.logged
}

// errRelayDead refuses a TLS connection once the companion is gone.
var errRelayDead = errors.New("pmproxy: TLS companion not running")

// hand passes c, whose first byte was read, to the companion and
// returns the plaintext's end of the pair. c stays open here: its
// caller closes it.
func (r *TLSRelay) hand(c net.Conn, first byte) (net.Conn, error) {
	if r == nil || r.dead.Load() {
		return nil, errRelayDead
	}
	sc, ok := c.(syscall.Conn)
	if !ok {
		return nil, errors.New("pmproxy: connection has no file descriptor")
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil, err
	}
	pair, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	theirs := os.NewFile(uintptr(pair[1]), "tls-plaintext")
	defer theirs.Close()
	mine := os.NewFile(uintptr(pair[0]), "tls-plaintext")
	plain, err := net.FileConn(mine)
	mine.Close()
	if err != nil {
		return nil, err
	}
	// a companion that stops reading must not hold the connection's
	// goroutine for long
	_ = r.ctrl.SetWriteDeadline(time.Now().Add(10 * time.Second))
	cerr := rc.Control(func(fd uintptr) {
		_, _, err = r.ctrl.WriteMsgUnix([]byte{first}, syscall.UnixRights(int(fd), pair[1]), nil)
	})
	if err == nil {
		err = cerr
	}
	if err != nil {
		plain.Close()
		return nil, err
	}
	return plain, nil
}

// isTLSRecord is a TLS record's first byte (change cipher spec, alert,
// handshake, application data, heartbeat), which PCP's pmproxy takes as
// TLS.
func isTLSRecord(b byte) bool { return b >= 0x14 && b <= 0x18 }

// handTLS serves a connection that starts with a TLS record: through
// the companion when TLS is on, the plaintext as an ordinary connection
// holding c's slot and address; closed without a word when TLS is off
// (as PCP's pmproxy closes it) or c is itself plaintext of one.
func handTLS(c net.Conn, first byte, r *TLSRelay, srv *httpd.Server) {
	sc, ok := c.(*slotConn)
	if r == nil || !ok || sc.secure {
		c.Close()
		return
	}
	plain, err := r.hand(sc.Conn, first)
	if err != nil {
		c.Close()
		return
	}
	remote, release := sc.Conn.RemoteAddr(), sc.handOver()
	sc.Conn.Close()
	_ = srv.Add(&slotConn{Conn: plain, release: release, remote: remote, secure: true})
}
