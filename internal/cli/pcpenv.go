package cli

import (
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gopcp/gopcp/internal/pmapienv"
	"github.com/gopcp/gopcp/pmapi"
)

// This file is where PCP's tools read the environment variables that
// libpcp reads inside its library: the libraries here take them as
// options, so that only the edge (cmd/ through this package) reads the
// process's environment.

// HostEnv is the options PCP's variables give a host context
// (pmapienv.HostEnv: PMCD_PORT, PMCD_*_TIMEOUT, PMCD_SOCKET,
// PCP_CONTAINER, PCP_SECURE_SOCKETS, PCP_CONSOLE, PMPROXY_HOST and
// PMPROXY_PORT), kept here for the tools.
func HostEnv() []pmapi.Option { return pmapienv.HostEnv() }

// RequestTimeout is $PMCD_REQUEST_TIMEOUT as libpcp reads it
// (pmapienv.RequestTimeout), for the tools that read PDUs themselves
// (pmlogger from pmlc, dbpmda from agents) and give it to their Readers.
func RequestTimeout() time.Duration { return pmapienv.RequestTimeout() }

// archiveEnv is the options $PCP_IGNORE_MARK_RECORDS and
// $PCP_COUNTER_WRAP give an archive context, with its warnings on
// stderr after the program's name, as libpcp prints them.
func archiveEnv(stderr io.Writer) []pmapi.Option {
	if stderr == nil {
		stderr = os.Stderr
	}
	opts := []pmapi.Option{pmapi.WithWarnings(progWriter{stderr, filepath.Base(os.Args[0])})}
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
