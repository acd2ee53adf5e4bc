// Package pmapienv reads the environment variables libpcp reads inside
// its library for host contexts (PMCD_PORT, PMCD_*_TIMEOUT, PMCD_SOCKET,
// PCP_CONTAINER, PCP_SECURE_SOCKETS, PCP_CONSOLE, PMPROXY_HOST and
// PMPROXY_PORT) and gives them to pmapi as options. It is its own
// package, importing pmapi and pdu only, so that a daemon reading its
// options with internal/getopt (pmproxy) gets the PMAPI's settings
// without internal/cli and the in-process agents cli links;
// internal/cli re-exports it for the tools.
package pmapienv

import (
	"os"
	"time"

	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi"
)

// Lookup is how the settings are found: os.LookupEnv for a program's
// own environment.
type Lookup func(name string) (string, bool)

// HostEnv is HostOptions of the process's environment.
func HostEnv() []pmapi.Option { return HostOptions(os.LookupEnv) }

// HostOptions is the options PCP's variables give a host context, read
// as libpcp reads them: PMCD_PORT, PMCD_CONNECT_TIMEOUT,
// PMCD_REQUEST_TIMEOUT, PMCD_RECONNECT_TIMEOUT, PMCD_SOCKET,
// PCP_CONTAINER, PCP_SECURE_SOCKETS, PCP_CONSOLE (where authentication
// asks for a missing user name or password: /dev/tty unless set, "none"
// never), and PMPROXY_HOST with PMPROXY_PORT (every host context through
// that pmproxy).
func HostOptions(env Lookup) []pmapi.Option {
	var opts []pmapi.Option
	if v, ok := env("PMCD_PORT"); ok {
		opts = append(opts, pmapi.WithPorts(pmapi.ParsePorts(v)))
	}
	if v, ok := env("PMCD_CONNECT_TIMEOUT"); ok {
		opts = append(opts, pmapi.WithConnectTimeout(pmapi.ParseConnectTimeout(v)))
	}
	if v, ok := env("PMCD_REQUEST_TIMEOUT"); ok {
		opts = append(opts, requestWaits(v)...)
	}
	if v, ok := env("PMCD_RECONNECT_TIMEOUT"); ok {
		opts = append(opts, pmapi.WithReconnectBackoff(pmapi.ParseReconnectTimeout(v)))
	}
	if v, ok := env("PMCD_SOCKET"); ok {
		opts = append(opts, pmapi.WithSocketPath(v))
	}
	if v, ok := env("PCP_CONTAINER"); ok {
		opts = append(opts, pmapi.WithDefaultContainer(v))
	}
	if v, ok := env("PCP_SECURE_SOCKETS"); ok && (v == "" || v == "1" || v == "enforce") {
		opts = append(opts, pmapi.WithSecureSockets(true))
	}
	console := "/dev/tty"
	if v, ok := env("PCP_CONSOLE"); ok {
		console = v
	}
	opts = append(opts, pmapi.WithConsole(console))
	if host, ok := env("PMPROXY_HOST"); ok {
		port := pmapi.DefaultProxyPort
		if v, ok := env("PMPROXY_PORT"); ok {
			port = pmapi.ParseProxyPort(v)
		}
		opts = append(opts, pmapi.WithProxy(host, port))
	}
	return opts
}

// RequestTimeout is how long PCP programs wait for a PDU they expect:
// $PMCD_REQUEST_TIMEOUT as libpcp reads it (pdu.ParseRequestTimeout;
// zero means no limit), pdu.DefaultTimeout without it.
func RequestTimeout() time.Duration { return requestTimeout(os.LookupEnv) }

func requestTimeout(env Lookup) time.Duration {
	v, ok := env("PMCD_REQUEST_TIMEOUT")
	if !ok {
		return pdu.DefaultTimeout
	}
	return pdu.ParseRequestTimeout(v)
}

// requestWaits is PMCD_REQUEST_TIMEOUT's value as libpcp's host
// contexts use it (pdu.ParseRequestWaits): one wait for requests, and
// the exact one for namespace traversals and the handshake when it is a
// wait of its own.
func requestWaits(v string) []pmapi.Option {
	request, exactWait, exact := pdu.ParseRequestWaits(v)
	opts := []pmapi.Option{pmapi.WithRequestTimeout(request)}
	if exact {
		opts = append(opts, pmapi.WithTraverseTimeout(exactWait), pmapi.WithHandshakeWait(exactWait))
	}
	return opts
}
