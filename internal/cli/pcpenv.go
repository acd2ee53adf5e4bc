package cli

import (
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi"
)

// This file is where PCP's tools read the environment variables that
// libpcp reads inside its library: the libraries here take them as
// options, so that only the edge (cmd/ through this package) reads the
// process's environment.

// HostEnv is the options PCP's variables give a host context:
// PMCD_PORT, PMCD_CONNECT_TIMEOUT, PMCD_REQUEST_TIMEOUT,
// PMCD_RECONNECT_TIMEOUT, PMCD_SOCKET, PCP_CONTAINER,
// PCP_SECURE_SOCKETS, PCP_CONSOLE (where authentication asks for a
// missing user name or password: /dev/tty unless set, "none" never), and
// PMPROXY_HOST with PMPROXY_PORT (every host context through that
// pmproxy), read as libpcp reads them.
func HostEnv() []pmapi.Option {
	var opts []pmapi.Option
	if v, ok := os.LookupEnv("PMCD_PORT"); ok {
		opts = append(opts, pmapi.WithPorts(pmapi.ParsePorts(v)))
	}
	if v, ok := os.LookupEnv("PMCD_CONNECT_TIMEOUT"); ok {
		opts = append(opts, pmapi.WithConnectTimeout(pmapi.ParseConnectTimeout(v)))
	}
	if _, ok := os.LookupEnv("PMCD_REQUEST_TIMEOUT"); ok {
		opts = append(opts, pmapi.WithRequestTimeout(RequestTimeout()))
	}
	if v, ok := os.LookupEnv("PMCD_RECONNECT_TIMEOUT"); ok {
		opts = append(opts, pmapi.WithReconnectBackoff(pmapi.ParseReconnectTimeout(v)))
	}
	if v, ok := os.LookupEnv("PMCD_SOCKET"); ok {
		opts = append(opts, pmapi.WithSocketPath(v))
	}
	if v, ok := os.LookupEnv("PCP_CONTAINER"); ok {
		opts = append(opts, pmapi.WithDefaultContainer(v))
	}
	if v, ok := os.LookupEnv("PCP_SECURE_SOCKETS"); ok && (v == "" || v == "1" || v == "enforce") {
		opts = append(opts, pmapi.WithSecureSockets(true))
	}
	console := "/dev/tty"
	if v, ok := os.LookupEnv("PCP_CONSOLE"); ok {
		console = v
	}
	opts = append(opts, pmapi.WithConsole(console))
	if host, ok := os.LookupEnv("PMPROXY_HOST"); ok {
		port := pmapi.DefaultProxyPort
		if v, ok := os.LookupEnv("PMPROXY_PORT"); ok {
			port = pmapi.ParseProxyPort(v)
		}
		opts = append(opts, pmapi.WithProxy(host, port))
	}
	return opts
}

// RequestTimeout is how long PCP programs wait for a PDU they expect:
// $PMCD_REQUEST_TIMEOUT as libpcp reads it (pdu.ParseRequestTimeout; zero
// means no limit), pdu.DefaultTimeout without it. The tools that read PDUs
// themselves (pmlogger from pmlc, dbpmda from agents) give it to their
// Readers.
func RequestTimeout() time.Duration {
	v, ok := os.LookupEnv("PMCD_REQUEST_TIMEOUT")
	if !ok {
		return pdu.DefaultTimeout
	}
	return pdu.ParseRequestTimeout(v)
}

// archiveEnv is the options $PCP_IGNORE_MARK_RECORDS and
// $PCP_COUNTER_WRAP give an archive context, with its warnings on
// stderr after the program's name, as libpcp prints them.
func archiveEnv() []pmapi.Option {
	opts := []pmapi.Option{pmapi.WithWarnings(progWriter{os.Stderr, filepath.Base(os.Args[0])})}
	if v, ok := os.LookupEnv("PCP_IGNORE_MARK_RECORDS"); ok {
		opts = append(opts, pmapi.WithIgnoreMarkRecords(v))
	}
	if CounterWrap() {
		opts = append(opts, pmapi.WithCounterWrap(true))
	}
	return opts
}

// CounterWrap is whether PCP_COUNTER_WRAP is set, for tools that
// compute rates themselves or through fetchgroups
// (fetchgroup.Group.SetCounterWrap).
func CounterWrap() bool {
	_, ok := os.LookupEnv("PCP_COUNTER_WRAP")
	return ok
}

// progWriter puts the program's name in front of each warning, one
// Write each.
type progWriter struct {
	w    io.Writer
	prog string
}

func (p progWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, p.prog+": "+string(b)); err != nil {
		return 0, err
	}
	return len(b), nil
}
