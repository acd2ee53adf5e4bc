package pmda

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gopcp/gopcp/internal/ownfile"
)

// DaemonOptions are the command line options PCP gives every daemon
// agent: its domain, log file and how pmcd reaches it.
type DaemonOptions struct {
	Domain   uint32
	LogFile  string // "-" is standard error
	Port     int    // -i: listen on this TCP port; 0 for none
	Socket   string // -u: listen on this Unix socket; "" for none
	Username string // -U: accepted for compatibility; not acted on
	Debug    string // -D: accepted for compatibility; not acted on
}

// Flags registers PCP's daemon agent options on fs with o's current values
// as defaults: -d domain, -l logfile, -p (pipe, the default), -i port,
// -u socket, -U username and -D debug options.
func (o *DaemonOptions) Flags(fs *flag.FlagSet) {
	fs.Func("d", "use domain `number` (default "+strconv.Itoa(int(o.Domain))+")", func(s string) error {
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil || n == 0 || n >= 511 {
			return fmt.Errorf("bad domain %q", s)
		}
		o.Domain = uint32(n)
		return nil
	})
	fs.StringVar(&o.LogFile, "l", o.LogFile, "write log to `file`")
	fs.BoolFunc("p", "talk to pmcd on standard input and output (default)", func(string) error {
		o.Port, o.Socket = 0, ""
		return nil
	})
	fs.IntVar(&o.Port, "i", o.Port, "wait for pmcd on TCP `port`")
	fs.StringVar(&o.Socket, "u", o.Socket, "wait for pmcd on Unix socket `path`")
	fs.StringVar(&o.Username, "U", o.Username, "run as `user` (ignored)")
	fs.StringVar(&o.Debug, "D", o.Debug, "debug `options` (ignored)")
}

// OpenLog starts the log file as PCP agents do (pmdaOpenLog): the
// previous log is moved aside to NAME.prev and a new one created, never
// truncated; "-" or "" is standard error. A log another live process
// writes (the same agent already running under another pmcd) is left
// alone: the agent then logs to standard error, saying so there.
func (o *DaemonOptions) OpenLog(prefix string) (*log.Logger, io.Closer, error) {
	return o.openLog(prefix, os.Stderr)
}

// openLog is OpenLog with standard error given.
func (o *DaemonOptions) openLog(prefix string, stderr io.Writer) (*log.Logger, io.Closer, error) {
	if o.LogFile == "" || o.LogFile == "-" {
		return log.New(stderr, prefix, log.LstdFlags), io.NopCloser(nil), nil
	}
	f, err := ownfile.OpenLog(filepath.Clean(o.LogFile))
	if errors.Is(err, ownfile.ErrInUse) {
		l := log.New(stderr, prefix, log.LstdFlags)
		l.Printf("cannot start log: %v; logging to standard error", err)
		return l, io.NopCloser(nil), nil
	}
	if err != nil {
		return nil, nil, err
	}
	return log.New(f, prefix, log.LstdFlags), f, nil
}

// Run serves a the way o says: on the pipe of stdin and stdout, or on the
// first connection to the TCP port or Unix socket. Pipes given as
// *os.File are served through PipeStreams.
func (o *DaemonOptions) Run(ctx context.Context, a *Agent, stdin io.Reader, stdout io.Writer) error {
	ln, release, err := o.listen()
	if err != nil {
		return fmt.Errorf("pmda: %s: %w", a.name, err)
	}
	defer release()
	if ln == nil {
		in, okIn := stdin.(*os.File)
		out, okOut := stdout.(*os.File)
		if okIn && okOut {
			var done func()
			stdin, stdout, done = pipeStreams(in, out)
			defer done()
		}
	}
	return serveOn(ctx, a, ln, stdin, stdout)
}

// listen binds the TCP port or Unix socket o names (nil for the pipe),
// which a daemon agent does before it touches any file, so that a second
// copy finding its port taken leaves the first's log alone. A socket left
// by an agent gone is replaced; one a live agent accepts on is not.
// release closes the listener and removes the socket while it is still
// the one bound here.
func (o *DaemonOptions) listen() (net.Listener, func(), error) {
	switch {
	case o.Socket != "":
		ln, err := ownfile.ListenUnix(o.Socket, 0)
		if err != nil {
			return nil, nil, err
		}
		return ln, func() { ln.Close() }, nil
	case o.Port != 0:
		// Every address, without a name to resolve: net.Listen's
		// resolver (its DNS client and all) would be linked in for
		// nothing, and its pages count in the agent's memory.
		ln, err := net.ListenTCP("tcp", &net.TCPAddr{Port: o.Port})
		if err != nil {
			return nil, nil, err
		}
		return ln, func() { ln.Close() }, nil
	}
	return nil, func() {}, nil
}

// serveOn serves a on ln's first connection, or on the pipe when ln is
// nil.
func serveOn(ctx context.Context, a *Agent, ln net.Listener, stdin io.Reader, stdout io.Writer) error {
	if ln == nil {
		return a.Serve(ctx, stdin, stdout)
	}
	return a.ServeListener(ctx, ln)
}
