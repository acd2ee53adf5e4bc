// Command pmseries is PCP's pmseries(1) on gopcp's series package: --load
// of archives into Redis in PCP's schema, and queries of what is there
// (PCP's query language, the -a -d -i -l -m -n -s -S -M -I reports and
// listings, -g globs, -v label values, -w windows of values), with
// PCP's options and configuration file (pmseries.conf's [redis] servers,
// [pmseries] stream.maxlen and stream.expire, [discover] exclude.metrics).
// Its one option of gopcp's own, --parallel N (default 2), loads archives
// of up to N hosts at once; the usage message leaves it out.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gopcp/gopcp/series/resp"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/internal/pcptz"
	"github.com/gopcp/gopcp/series"
)

func main() {
	cli.Signals()
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

func run(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
	o := options{port: 6379, parallel: 2}
	cmd := command(&o)
	p := cli.Parse(cmd, argv)
	var cfg series.Config
	if p.Errors == 0 && !p.Exit {
		cfg = readConfig(o.config)
	}
	m := modeOf(&o, p.Args, p)
	if p.Errors > 0 || p.Exit {
		// -V's exit is 0 whatever else went wrong, as in PCP
		fmt.Fprint(stderr, p.Report(cmd))
		if p.Exit {
			return 0
		}
		return 1
	}
	servers := cfg.Servers()
	if len(servers) == 0 || o.host != "" || o.port != 6379 {
		h := o.host
		if h == "" {
			h = "localhost"
		}
		servers = []string{fmt.Sprintf("%s:%d", h, o.port)}
	}
	if o.timezone != "" {
		// -Z is PCP's setenv("TZ"): the zone of the stamps printed and
		// of the times queries and windows read, for this run
		local := time.Local
		time.Local = pcptz.Load(o.timezone)
		defer func() { time.Local = local }()
	}
	// libpcp_web sends nothing more on a connection once a command
	// had no reply
	ropt := cfg.RedisOptions()
	ropt.NoResend = true
	c, err := series.Connect(ctx, servers, ropt)
	var se *series.SlotsError
	switch {
	case errors.As(err, &se):
		// a set of servers libpcp_web will not use: noted, nothing done
		ownfile.Notify(stderr, "pmseries", "Error", se.Msg)
		return 0
	case err != nil:
		if unreachable(stderr, err, resp.DefaultTimeout) {
			return 0
		}
		fmt.Fprintf(stderr, "pmseries: [Error] %v\n", err)
		return 1
	}
	defer c.Close()
	if !m.load {
		// the loader writes to the server's own connections itself
		c = series.StopWhenLost(c)
	}
	ok, failed := setup(ctx, c, cfg.SearchEnabled(), m.load, stderr)
	code := 0
	switch {
	case !ok:
	case m.load:
		code = load(ctx, c, cfg, &o, p.Args, stdout, stderr)
	default:
		code = query(ctx, c, &o, &m, joined(&o, p.Args), stdout, stderr)
	}
	if failed {
		return 1
	}
	return code
}

// readConfig reads the configuration as PCP's pmseries does
// (pmIniFileSetup): the file -c names when absolute, else the files of
// the program -c names, else pmseries' ($PCP_SYSCONF_DIR/pmseries/
// pmseries.conf, ~/.pmseries.conf, ~/.pcp/pmseries.conf,
// ./pmseries.conf). A file that cannot be read is no settings.
func readConfig(name string) series.Config {
	if name == "" {
		name = "pmseries"
	}
	dir, _ := pcpconf.Get("PCP_SYSCONF_DIR")
	return series.ReadIniFiles(series.IniFiles(name, dir, os.Getenv("HOME")))
}

// loadPaths turns --load's arguments into archive paths: the source of a
// {...} load expression, or the arguments themselves when each is an
// absolute path or a file there (PCP's access(2) heuristic; several are
// gopcp's, loaded together). Anything else is read as an expression, as
// PCP reads it, for its refusal.
func loadPaths(args []string) (paths, metrics []string, err error) {
	joined := strings.Join(args, " ")
	if len(args) == 0 {
		return nil, nil, series.ErrNoContext
	}
	if !strings.HasPrefix(joined, "{") {
		paths := true
		for _, a := range args {
			if _, err := os.Stat(a); err != nil && !strings.HasPrefix(a, "/") {
				paths = false
			}
		}
		if paths {
			return args, nil, nil
		}
	}
	p, metrics, err := series.LoadSource(joined)
	if err != nil {
		return nil, nil, err
	}
	return []string{p}, metrics, nil
}

// load is --load. As in PCP, warnings go to standard error and
// information (the records processed) to standard output.
func load(ctx context.Context, c resp.Client, cfg series.Config, o *options, args []string, stdout, stderr io.Writer) int {
	paths, metrics, err := loadPaths(args)
	if err != nil {
		fmt.Fprintf(stderr, "pmseries: [Error] %v\n", err)
		return 1
	}
	if len(paths) == 1 {
		// PCP's one archive refused in its words (several, gopcp's,
		// are each said by LoadAll and the others loaded)
		if msg := series.OpenFault(paths[0]); msg != "" {
			fmt.Fprintf(stderr, "pmseries: [Error] %s\n", msg)
			return 1
		}
	}
	opt := cfg.LoadOptions()
	opt.MetadataOnly = o.fast
	opt.Include = metrics
	stats, err := series.LoadAll(ctx, c, paths, opt, o.parallel)
	for _, s := range stats {
		if s.Name == "" {
			continue
		}
		for _, u := range s.Unknown {
			fmt.Fprintf(stderr, "pmseries: [Warning] PMNS traversal failed for %s: Unknown metric name\n", u)
		}
		fmt.Fprintf(stdout, "pmseries: [Info] processed %d archive records from %s\n", s.Records, s.Name)
		if s.Refused > 0 {
			fmt.Fprintf(stdout, "pmseries: [Info] %d values of %s were in Redis already (or newer ones were)\n", s.Refused, s.Name)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "pmseries: [Error] %v\n", err)
		return 1
	}
	return 0
}
