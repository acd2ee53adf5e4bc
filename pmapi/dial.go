package pmapi

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"syscall"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// connection is one established, greeted connection to pmcd.
type connection struct {
	conn     net.Conn
	features pdu.Flags // what pmcd offered in its greeting
	// the PDUs of the handshake, for the context's counters
	handshakeIn, handshakeOut []pdu.Type
}

// connect reaches pmcd as libpcp's __pmConnectPMCD does: the Unix socket
// for local: and unix: specifications (local: falling back to localhost
// on the default ports), else each of the host's ports in turn until one
// connects and completes the handshake.
func connect(ctx context.Context, hs *HostSpec, o options) (*connection, error) {
	// Like libpcp, only refuse features that are not available once
	// pmcd has been reached: an unreachable pmcd is reported as such.
	want, featureErr := wantFlags(hs, o.secure)
	if len(hs.Hosts) > 1 || o.proxy != nil {
		return connectProxy(ctx, hs, o, want, featureErr)
	}
	host := hs.Hosts[0]
	ports := host.Ports
	if len(ports) == 0 {
		ports = o.defaultPorts()
	}
	if hs.Kind != HostTCP {
		c, err := dialOne(ctx, "unix", host.Name, o, hs, want, featureErr)
		if err == nil {
			return c, nil
		}
		if ctx.Err() != nil {
			return nil, err
		}
		if hs.Kind == HostUnix {
			// libpcp ends a failed unix: attempt, whatever failed
			// (connecting, pmcd's refusal, authentication), with -2
			return nil, fmt.Errorf("%w (%w)", pcp.Error(-int32(syscall.ENOENT)), err)
		}
		host = Host{Name: "localhost"}
		ports = o.defaultPorts()
	}
	var last error
	for _, port := range ports {
		addr := net.JoinHostPort(host.Name, strconv.Itoa(port))
		c, err := dialOne(ctx, "tcp", addr, o, hs, want, featureErr)
		if err == nil {
			return c, nil
		}
		last = err
		if ctx.Err() != nil {
			break
		}
	}
	return nil, last
}

// wantFlags works out the connection features the specification asks for,
// as libpcp does: any of the attributes userauth, username, password,
// method and realm asks for SASL authentication (sasl.go). TLS and
// compression are not available here.
func wantFlags(hs *HostSpec, secure bool) (pdu.Flags, error) {
	var want pdu.Flags
	if hs.Attrs[pdu.AttrProtocol] == "pcps" {
		return 0, fmt.Errorf("pmapi: %s: secure connections: %w", hs, pcp.ErrNYI)
	}
	if secure {
		return 0, fmt.Errorf("pmapi: %s: secure connections (PCP_SECURE_SOCKETS): %w", hs, pcp.ErrNYI)
	}
	if _, ok := hs.Attrs[pdu.AttrCompress]; ok {
		return 0, fmt.Errorf("pmapi: %s: compression: %w", hs, pcp.Error(-int32(syscall.EOPNOTSUPP)))
	}
	for _, k := range []pdu.AttrKey{pdu.AttrUserAuth, pdu.AttrUsername, pdu.AttrPassword, pdu.AttrMethod, pdu.AttrRealm} {
		if _, ok := hs.Attrs[k]; ok {
			want |= pdu.FlagAuth
		}
	}
	if _, ok := hs.Attrs[pdu.AttrContainer]; ok {
		want |= pdu.FlagContainer
	}
	return want, nil
}

// dialOne connects to one address within the connect timeout (as libpcp
// does: dialwait.go) and does the handshake within the request timeout,
// sending the container name when one was asked for; a non-nil
// featureErr is returned once connected.
func dialOne(ctx context.Context, network, addr string, o options, hs *HostSpec, want pdu.Flags, featureErr error) (*connection, error) {
	conn, err := dialPMCD(ctx, network, addr, o.connectTimeout)
	if err != nil {
		return nil, fmt.Errorf("pmapi: connecting to %s: %w", addr, dialError(ctx, err))
	}
	return greet(ctx, conn, addr, o, hs, want, featureErr)
}

// greet does pmcd's handshake on a connection made (to pmcd, or through
// pmproxy once it relays), closing it on failure.
func greet(ctx context.Context, conn net.Conn, addr string, o options, hs *HostSpec, want pdu.Flags, featureErr error) (*connection, error) {
	if featureErr != nil {
		conn.Close()
		return nil, featureErr
	}
	wait, zero := o.handshakeTimeout()
	hctx := ctx
	if wait > 0 || zero {
		var cancel context.CancelFunc
		hctx, cancel = context.WithTimeout(ctx, wait)
		defer cancel()
	}
	// The handshake's own writes go through hconn; the connection kept
	// is conn, as the first of them has been by then.
	hconn := o.handshakeConn(conn)
	hello, err := pdu.ClientHandshake(hctx, hconn, want, wait)
	// the greeting in, CREDS out, the SASL exchange's ATTR PDUs, and
	// ATTR for a container
	hsIn := []pdu.Type{pdu.TypeError}
	hsOut := []pdu.Type{pdu.TypeCreds}
	if err == nil && needsAuth(hello.Sent, hs) {
		var in, out int
		in, out, err = authenticate(hctx, hconn, wait, hs, saslHost(conn.RemoteAddr().Network(), addr), o.console)
		for range in {
			hsIn = append(hsIn, pdu.TypeAttr)
		}
		for range out {
			hsOut = append(hsOut, pdu.TypeAttr)
		}
	}
	if err == nil && hello.Sent&pdu.FlagContainer != 0 {
		w := pdu.NewWriter(hconn)
		err = w.WriteMessage(hctx, &pdu.Attr{Key: pdu.AttrContainer, Value: []byte(hs.Attrs[pdu.AttrContainer])}, 0)
		hsOut = append(hsOut, pdu.TypeAttr)
	}
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("pmapi: handshake with pmcd at %s: %w", addr, err)
	}
	return &connection{conn: conn, features: hello.Greeting.Info.Features, handshakeIn: hsIn, handshakeOut: hsOut}, nil
}

// dialError turns a failed dial into the PCP code libpcp reports: the
// errno of the refusal, ETIMEDOUT when the connect timeout expires,
// and EHOSTUNREACH for a name that does not resolve. A cancelled ctx
// stays ctx's error.
func dialError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w (%w)", ctx.Err(), err)
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return fmt.Errorf("%w (%w)", pcp.Error(-int32(syscall.EHOSTUNREACH)), err)
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return pcp.Error(-int32(errno))
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return pcp.Error(-int32(syscall.ETIMEDOUT))
	}
	return fmt.Errorf("%w (%w)", pcp.ErrIPC, err)
}
