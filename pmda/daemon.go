package pmda

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"strconv"
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

// OpenLog opens the log file as PCP agents do: appended to if it exists,
// created otherwise; "-" or "" is standard error.
func (o *DaemonOptions) OpenLog(prefix string) (*log.Logger, io.Closer, error) {
	if o.LogFile == "" || o.LogFile == "-" {
		return log.New(os.Stderr, prefix, log.LstdFlags), io.NopCloser(nil), nil
	}
	f, err := os.OpenFile(filepath.Clean(o.LogFile), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, err
	}
	return log.New(f, prefix, log.LstdFlags), f, nil
}

// Run serves a the way o says: on the pipe of stdin and stdout, or on the
// first connection to the TCP port or Unix socket.
func (o *DaemonOptions) Run(ctx context.Context, a *Agent, stdin io.Reader, stdout io.Writer) error {
	var ln net.Listener
	var err error
	switch {
	case o.Socket != "":
		ln, err = (&net.ListenConfig{}).Listen(ctx, "unix", o.Socket)
		if err == nil {
			defer os.Remove(o.Socket)
		}
	case o.Port != 0:
		ln, err = (&net.ListenConfig{}).Listen(ctx, "tcp", ":"+strconv.Itoa(o.Port))
	default:
		return a.Serve(ctx, stdin, stdout)
	}
	if err != nil {
		return fmt.Errorf("pmda: %s: %w", a.name, err)
	}
	return a.ServeListener(ctx, ln)
}
