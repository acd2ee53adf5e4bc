package pmapi

import (
	"context"
	"fmt"
	"io"
	"net"
	"strconv"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// DefaultProxyPort is pmproxy's well-known TCP port, PCP's PROXY_PORT:
// the port of a proxy host named without one.
const DefaultProxyPort = 44322

// The greetings of pmproxy's handshake, as libpcp and pmproxy write them
// (the server's is read up to '\n' or '\r').
const (
	proxyClientHello = "pmproxy-client 1\n"
	proxyServerHello = "pmproxy-server 1"
)

// maxProxyLine bounds the server's greeting as libpcp does (a host
// name's length and ten): a longer one is not pmproxy's.
const maxProxyLine = 64 + 10

// WithProxy sends every connection of a host context through the pmproxy
// at host:port, as PCP's PMPROXY_HOST and PMPROXY_PORT (ParseProxyPort)
// do; a specification naming its own proxy ("host@proxyhost") uses that
// one. An empty host, as PMPROXY_HOST set but empty, is a proxy that
// cannot be reached (EHOSTUNREACH), as in libpcp.
func WithProxy(host string, port int) Option {
	return func(o *options) { o.proxy = &Host{Name: host, Ports: []int{port}} }
}

// ParseProxyPort reads $PMPROXY_PORT's value as libpcp does: a port list
// as PMCD_PORT's (ParsePorts), of which the first port is used;
// DefaultProxyPort for a list PCP refuses.
func ParseProxyPort(s string) int {
	if ports, ok := parsePortList(s); ok && len(ports) > 0 {
		return ports[0]
	}
	return DefaultProxyPort
}

// connectProxy reaches pmcd through pmproxy as libpcp's __pmConnectPMCD
// does: for each of pmcd's ports in turn, a new connection to the proxy
// (the second host of the specification, else WithProxy's; its first
// port, else DefaultProxyPort), the proxy's handshake naming pmcd's host
// as the specification spells it and that port, then pmcd's own
// handshake through the relay. A proxy that cannot be reached ends the
// attempts; a refused handshake tries the next port. Unix socket
// specifications ("local:", "unix:") have no port to name, so libpcp
// makes no attempt and fails with -1 (EPERM); so does this.
func connectProxy(ctx context.Context, hs *HostSpec, o options, want pdu.Flags, featureErr error) (*connection, error) {
	proxy := o.proxy
	if len(hs.Hosts) > 1 {
		proxy = &hs.Hosts[1]
	}
	proxyPort := DefaultProxyPort
	if len(proxy.Ports) > 0 {
		proxyPort = proxy.Ports[0]
	}
	if hs.Kind != HostTCP {
		return nil, fmt.Errorf("pmapi: %s through pmproxy at %s: no TCP port to ask for: %w", hs, proxy.Name, pcp.Error(-int32(syscall.EPERM)))
	}
	target := hs.Hosts[0]
	ports := target.Ports
	if len(ports) == 0 {
		ports = o.defaultPorts()
	}
	addr := net.JoinHostPort(proxy.Name, strconv.Itoa(proxyPort))
	if proxy.Name == "" {
		// Go would dial the local system; libpcp finds no address
		return nil, fmt.Errorf("pmapi: %s: empty pmproxy host name: %w", hs, pcp.Error(-int32(syscall.EHOSTUNREACH)))
	}
	var last error
	for _, port := range ports {
		conn, err := dialPMCD(ctx, "tcp", addr, o.connectTimeout)
		if err != nil {
			return nil, fmt.Errorf("pmapi: connecting to pmproxy at %s: %w", addr, dialError(ctx, err))
		}
		if err := negotiateProxy(ctx, conn, target.Name, port, o.requestTimeout); err != nil {
			conn.Close()
			last = fmt.Errorf("pmapi: pmproxy at %s for %s port %d: %w", addr, target.Name, port, err)
			if ctx.Err() != nil {
				break
			}
			continue
		}
		c, err := greet(ctx, conn, addr, o, hs, want, featureErr)
		if err == nil {
			return c, nil
		}
		last = err
		if ctx.Err() != nil {
			break
		}
	}
	if last == nil {
		last = fmt.Errorf("pmapi: %s through pmproxy at %s: no port to ask for: %w", hs, addr, pcp.Error(-int32(syscall.EPERM)))
	}
	return nil, last
}

// negotiateProxy says the client's greeting, reads the server's and names
// the pmcd wanted, within the request timeout (zero: only ctx bounds it).
// Anything but pmproxy's greeting is pcp.ErrIPC, as in libpcp.
func negotiateProxy(ctx context.Context, conn net.Conn, host string, port int, timeout time.Duration) error {
	deadline, ok := ctx.Deadline()
	if timeout > 0 && (!ok || time.Now().Add(timeout).Before(deadline)) {
		deadline, ok = time.Now().Add(timeout), true
	}
	if ok {
		_ = conn.SetDeadline(deadline)
		defer conn.SetDeadline(time.Time{})
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if _, err := io.WriteString(conn, proxyClientHello); err != nil {
		return fmt.Errorf("sending the greeting: %w (%w)", pcp.ErrIPC, err)
	}
	// One byte at a time, as libpcp reads it: what follows the line is
	// pmcd's, and must be left for pmcd's handshake.
	var line []byte
	b := make([]byte, 1)
	for {
		if _, err := io.ReadFull(conn, b); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("bad greeting %q: %w (%w)", line, pcp.ErrIPC, err)
		}
		if b[0] == '\n' || b[0] == '\r' {
			break
		}
		if len(line) >= maxProxyLine {
			return fmt.Errorf("greeting too long: %w", pcp.ErrIPC)
		}
		line = append(line, b[0])
	}
	if string(line) != proxyServerHello {
		return fmt.Errorf("bad greeting %q: %w", line, pcp.ErrIPC)
	}
	if _, err := io.WriteString(conn, host+" "+strconv.Itoa(port)+"\n"); err != nil {
		return fmt.Errorf("naming pmcd: %w (%w)", pcp.ErrIPC, err)
	}
	return nil
}
