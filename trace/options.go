package trace

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/internal/cstrtod"
	"github.com/gopcp/gopcp/internal/getopt"
)

// Options configure a Client. The zero value is libpcp_trace's defaults:
// this host's name, port 4323, 3 seconds to connect, 10 seconds for an
// acknowledgement, reconnection after 5, 10, 20, 40 then 80 seconds, the
// synchronous protocol.
type Options struct {
	// Host runs the agent; "" is this host's name, as libpcp_trace uses,
	// unless EmptyHost.
	Host string
	// EmptyHost looks up an empty Host itself, which finds no address
	// (PCP_TRACE_HOST="", pmtrace -h ''), as libpcp_trace's lookup does.
	EmptyHost bool
	// Port is the agent's TCP port; 0 is DefaultPort, PortZero port 0
	// itself (PCP_TRACE_PORT "" or "0", which libpcp_trace dials and is
	// refused). Bits above the 16 of a port are dropped when dialling,
	// as libpcp_trace's socket address drops them, but kept for
	// StateComms's lines, which name the port as given.
	Port int
	// ConnectTimeout is libpcp_trace's alarm on each connection attempt:
	// an attempt still waiting after it fails with EINTR; 0 is 3 seconds,
	// a negative value (PCP_TRACE_TIMEOUT=0) arms none. Whatever it is,
	// an attempt fails with ETIMEDOUT after ConnectWait, so values past
	// ConnectWait change nothing.
	ConnectTimeout time.Duration
	// RequestTimeout bounds the wait for an acknowledgement and for a
	// write; 0 is 10 seconds. A negative value (PCP_TRACE_REQTIMEOUT=0)
	// waits for no acknowledgement: one not already arrived has timed
	// out, as libpcp_trace's select with a zero wait has it; writes are
	// then bounded by the default.
	RequestTimeout time.Duration
	// Reconnect is the back-off between attempts to reach a lost agent,
	// the last step repeating; nil is 5, 10, 20, 40 and 80 seconds.
	Reconnect []time.Duration
	// Async chooses the asynchronous protocol: no acknowledgements are
	// asked for or awaited (PMTRACE_STATE_ASYNC).
	Async bool
	// NoAgent skips all communication, for testing the calls
	// (PMTRACE_STATE_NOAGENT, PCP_TRACE_NOAGENT).
	NoAgent bool
	// State holds pmtracestate's diagnostic flags (StateAPI, StateComms,
	// StatePDU, StatePDUBuf); their messages go to Log.
	State State
	// Log receives diagnostics asked for by State; nil discards them.
	Log io.Writer
	// PID is the sender's process id written into each PDU; 0 is this
	// process's.
	PID int32
	// Dialling, when set, is called with each connection attempt's dial
	// and must call it: a program that handles the process's signals as
	// libpcp_trace does (pmtrace) holds SIGALRM off around it, as
	// libpcp_trace's connect catches SIGALRM while it waits. Nil dials.
	Dialling func(dial func())
	// Sending, when set, is called before each PDU is written: such a
	// program ignores SIGPIPE from the first on, as libpcp_trace does.
	Sending func()
	// Warn receives the messages libpcp_trace writes to stderr whatever
	// the State (about BadEnv's variables); nil discards them.
	Warn io.Writer
	// BadEnv names the PCP_TRACE_* variables EnvOptions found malformed.
	// The client treats them as libpcp_trace does: PCP_TRACE_PORT and
	// PCP_TRACE_TIMEOUT get a warning on Warn at each connection
	// attempt, the default used; with PCP_TRACE_REQTIMEOUT no
	// acknowledgement is ever read, each wait for one reported on Warn
	// and then passed over as if it had come.
	BadEnv []string
}

// PortZero is Options.Port for port 0 itself, 0 being the default's.
const PortZero = -1

// Defaults of libpcp_trace.
const (
	DefaultConnectTimeout = 3 * time.Second
	DefaultRequestTimeout = 10 * time.Second
	// ConnectWait bounds every connection attempt, whatever
	// ConnectTimeout: libpcp_trace's wait for the socket to be writable.
	ConnectWait = 5 * time.Second
)

// DefaultReconnect is libpcp_trace's back-off.
func DefaultReconnect() []time.Duration {
	return []time.Duration{5 * time.Second, 10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second}
}

// The environment variables libpcp_trace reads.
const (
	EnvHost       = "PCP_TRACE_HOST"
	EnvPort       = "PCP_TRACE_PORT"
	EnvTimeout    = "PCP_TRACE_TIMEOUT"
	EnvReqTimeout = "PCP_TRACE_REQTIMEOUT"
	EnvReconnect  = "PCP_TRACE_RECONNECT"
	EnvNoAgent    = "PCP_TRACE_NOAGENT"
)

// EnvOptions reads the PCP_TRACE_* variables through lookup (os.LookupEnv
// at a program's edge) into Options, by libpcp_trace's rules: the port as
// C's strtol reads it (decimal, 0x hex, 0 octal; negative or trailing
// text malformed; 0 is PortZero; more than 16 bits dropped when
// dialling), timeouts as C's strtod reads seconds (negative or trailing
// text malformed; 0 arms no alarm for a connect, waits not at all for an
// acknowledgement), the reconnect
// back-off as a comma-separated list of positive whole seconds, NOAGENT
// by its presence. A malformed value is left at its default, named in
// Options.BadEnv, whose warnings the client gives as libpcp_trace does,
// and reported in the error (wrapping ErrEnvFormat) for programs that say
// it their own way; the Options returned are usable either way.
func EnvOptions(lookup func(string) (string, bool)) (Options, error) {
	var o Options
	var errs []error
	bad := func(name, v string) {
		errs = append(errs, fmt.Errorf("%w: %s=%q", ErrEnvFormat, name, v))
		o.BadEnv = append(o.BadEnv, name)
	}
	if v, ok := lookup(EnvHost); ok {
		o.Host, o.EmptyHost = v, v == ""
	}
	if v, ok := lookup(EnvPort); ok {
		n, end, _ := getopt.CStrtol(v, 0)
		// libpcp_trace keeps strtol's long in an int before its check
		if p := int32(n); end != len(v) || p < 0 {
			bad(EnvPort, v)
		} else if p != 0 {
			o.Port = int(p)
		} else {
			o.Port = PortZero
		}
	}
	for _, e := range []struct {
		name string
		to   *time.Duration
		zero time.Duration // what 0 seconds means
	}{{EnvTimeout, &o.ConnectTimeout, -1}, {EnvReqTimeout, &o.RequestTimeout, -1}} {
		if v, ok := lookup(e.name); ok {
			s, end, _ := cstrtod.Parse(v)
			// NaN too: a NaN of seconds is no Duration
			switch {
			case end != len(v) || !(s >= 0 && s <= 1e6):
				bad(e.name, v)
			case s == 0:
				*e.to = e.zero
			default:
				*e.to = time.Duration(s * float64(time.Second))
			}
		}
	}
	if v, ok := lookup(EnvReconnect); ok {
		steps, err := parseBackoff(v)
		if err != nil {
			bad(EnvReconnect, v)
		} else {
			o.Reconnect = steps
		}
	}
	if _, ok := lookup(EnvNoAgent); ok {
		o.NoAgent = true
	}
	return o, errors.Join(errs...)
}

// badEnv says whether EnvOptions found the variable name malformed.
func (o *Options) badEnv(name string) bool { return slices.Contains(o.BadEnv, name) }

// parseBackoff reads "5,10,20": positive whole seconds.
func parseBackoff(v string) ([]time.Duration, error) {
	var steps []time.Duration
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(f)
		// more seconds than a Duration holds would wrap negative
		if err != nil || n <= 0 || n > math.MaxInt64/int(time.Second) {
			return nil, ErrEnvFormat
		}
		steps = append(steps, time.Duration(n)*time.Second)
		if len(steps) > 64 {
			return nil, ErrEnvFormat
		}
	}
	return steps, nil
}

// State is pmtracestate's set of flags.
type State int

// pmtracestate's flags (PMTRACE_STATE_*).
const (
	StateNone    State = 0
	StateAPI     State = 1  // a line per call
	StateComms   State = 2  // connections made and lost
	StatePDU     State = 4  // each PDU sent and received
	StatePDUBuf  State = 8  // PDU bytes
	StateNoAgent State = 16 // no communication at all
	StateAsync   State = 32 // the asynchronous protocol
)
