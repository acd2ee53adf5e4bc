// Command pmlc is PCP's pmlc(1), the pmlogger controller: it connects to
// a running pmlogger (its pid, -p port, -P for the primary, or a local
// socket path with -h) and reads pmlc's command language from stdin to
// show the logger's status, query and change what it logs, and start a
// new volume, printing what PCP 6.0.3's pmlc prints. The language and
// the protocol are in package pmlogger/pmlc; this is its command line.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/internal/getopt"
	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/internal/pcptz"
	"github.com/gopcp/gopcp/internal/tty"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmlogger"
	"github.com/gopcp/gopcp/pmlogger/pmlc"
)

func main() {
	cli.Signals()
	os.Exit(run(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr))
}

type flags struct {
	echo, interactive bool
	host              string
	hostSet           bool
	pid, port         int
	isUnix, sockPath  bool
}

func command(f *flags) *cli.Command {
	logzone := cli.OptHostZone
	logzone.Long, logzone.Help = "logzone", "set reporting timezone to local time for pmlogger"
	return &cli.Command{
		Name:  "pmlc",
		Usage: "[options] [pid]",
		Options: []cli.Option{
			cli.Header("Options"),
			cli.OptDebug,
			{Long: "echo", Short: 'e', Help: "echo input"},
			{Long: "host", Short: 'h', Arg: "HOST", Help: "connect to pmlogger using host specification"},
			{Long: "interactive", Short: 'i', Help: "be interactive and prompt"},
			cli.OptNamespace,
			{Long: "primary", Short: 'P', Help: "connect to primary pmlogger"},
			{Long: "port", Short: 'p', Arg: "N", Help: "connect to pmlogger on this TCP/IP port"},
			cli.OptTimezone,
			logzone,
			cli.OptHelp,
		},
		Handle: f.handle,
	}
}

const atMostOne = "at most one of -P, -p, unix socket, or PID may be specified"

func (f *flags) handle(o cli.Option, arg string, p *cli.Parsed) {
	switch o.Short {
	case 'e':
		f.echo = true
	case 'i':
		f.interactive = true
	case 'h':
		f.host, f.hostSet = arg, true
		_, f.isUnix, f.sockPath = pmlc.SocketPath(arg)
	case 'P':
		if f.port != pmlogger.NoPort || f.isUnix && f.sockPath {
			p.Errorf(atMostOne)
			return
		}
		f.port = pmlogger.PrimaryPort
	case 'p':
		if f.port != pmlogger.NoPort || f.isUnix {
			p.Errorf(atMostOne)
			return
		}
		n, end, _ := getopt.CStrtol(arg, 10)
		f.port = int(int32(n))
		if end != len(arg) || f.port <= pmlogger.PrimaryPort {
			p.Errorf("port must be numeric and greater than %d", pmlogger.PrimaryPort)
		}
	}
}

func run(ctx context.Context, argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := &flags{pid: pmlogger.NoPID, port: pmlogger.NoPort}
	cmd := command(f)
	p := cli.Parse(cmd, argv)
	if len(p.Args) > 1 {
		p.Errors++
	} else if len(p.Args) == 1 {
		if f.port != pmlogger.NoPort || f.isUnix && f.sockPath {
			p.Errorf(atMostOne)
		} else {
			arg := p.Args[0]
			n, end, _ := getopt.CStrtol(arg, 10)
			f.pid = int(int32(n))
			if end != len(arg) || f.pid <= pmlogger.PrimaryPID {
				p.Errorf("PID must be a numeric process ID and greater than %d", pmlogger.PrimaryPID)
			}
		}
	}
	if p.Errors == 0 && f.hostSet && f.pid == pmlogger.NoPID && f.port == pmlogger.NoPort && !f.sockPath {
		p.Errorf("-h may not be used without -P or -p or a socket path or a PID")
	}
	if p.Errors > 0 || p.Exit {
		fmt.Fprint(stderr, p.Report(cmd))
		return 1
	}
	s := &pmlc.Session{
		Stdout:      stdout,
		Stderr:      stderr,
		Echo:        f.echo,
		Interactive: f.interactive || isTerminal(stdin),
		Dirs:        clientDirs(),
		Version:     getopt.Version,
		Local:       pcptz.Local(os.LookupEnv("TZ")),
		OpenPMCD: func(ctx context.Context, host string) (pmlc.Source, error) {
			return p.NewSource(ctx, pmapi.KindHost, host)
		},
	}
	o := pmlc.Options{Host: f.host, PID: f.pid, Port: f.port, TZ: p.Timezone, LoggerZone: p.HostZone}
	return s.Run(ctx, o, stdin)
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && tty.IsTerminal(f)
}

// clientDirs are PCP_RUN_DIR, PCP_TMP_DIR, the home directory and
// PMLOGGER_REQUEST_TIMEOUT (whole seconds; anything else is no timeout).
func clientDirs() pmlogger.ClientDirs {
	d := pmlogger.ClientDirs{}
	d.RunDir, _ = pcpconf.Get("PCP_RUN_DIR")
	d.TmpDir, _ = pcpconf.Get("PCP_TMP_DIR")
	d.Home, _ = os.UserHomeDir()
	if v, ok := os.LookupEnv("PMLOGGER_REQUEST_TIMEOUT"); ok {
		// a bad value is no timeout (PCP's warning goes through
		// pmNotifyErr only once a wait starts; not printed here)
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			d.Timeout = time.Duration(n) * time.Second
		}
	}
	return d
}
