package main

import (
	"github.com/gopcp/gopcp/internal/cli"
)

type options struct {
	config, host string
	port         int
	load, query  bool
	values       bool
	all, desc    bool
	fullInDom    bool
	instances    bool
	fast         bool
	glob         string
	globSet      bool // -g given, even empty (which matches nothing)
	labels       bool
	fullPMID     bool
	metrics      bool
	names        bool
	sources      bool
	series       bool
	times        bool
	window       string
	timezone     string
	parallel     int
}

// command is pmseries' option table in PCP's order and words; -a -h -L -n
// -p -s -S -t and -Z are pmseries' own, not the standard options of those
// letters. --parallel is gopcp's (archives of different hosts loaded at
// once), left out of the usage message so that it stays PCP's.
func command(o *options) *cli.Command {
	return &cli.Command{
		Name:  "pmseries",
		Usage: "[options] [query ... | labels ... | series ... | source ...]",
		Options: []cli.Option{
			cli.Header("Connection Options"),
			{Long: "config", Short: 'c', Arg: "FILE", Help: "configuration file path"},
			{Long: "host", Short: 'h', Arg: "HOST", Help: "connect to Redis using given host name"},
			{Long: "port", Short: 'p', Arg: "PORT", Help: "connect to Redis using given TCP/IP port"},
			cli.Header("General Options"),
			{Long: "load", Short: 'L', Help: "load time series values and metadata"},
			{Long: "query", Short: 'q', Help: "perform a time series query (default)"},
			{Long: "values", Short: 'v', Help: "extract values for given series or label(s)"},
			cli.OptDebug,
			cli.Header("Reporting Options"),
			{Long: "all", Short: 'a', Help: "report all metadata (-dilms) for time series"},
			{Long: "desc", Short: 'd', Help: "metric descriptor for time series"},
			{Long: "fullindom", Short: 'I', Help: "print InDom in verbose format"},
			{Long: "instances", Short: 'i', Help: "report names for time series instances"},
			{Long: "fast", Short: 'F', Help: "query or load series metadata, not values"},
			{Long: "glob", Short: 'g', Arg: "PATTERN", Help: "glob pattern to restrict matches"},
			{Long: "labels", Short: 'l', Help: "list all labels for time series"},
			{Long: "fullpmid", Short: 'M', Help: "print PMID in verbose format"},
			{Long: "metrics", Short: 'm', Help: "report names and expressions for time series"},
			{Long: "names", Short: 'n', Help: "print label names only, not values"},
			{Long: "sources", Short: 'S', Help: "report names for time series sources"},
			{Long: "series", Short: 's', Help: "print series ID for metrics, instances and sources"},
			{Long: "times", Short: 't', Help: "print numeric time stamps (in milliseconds)"},
			{Long: "window", Short: 'w', Arg: "TIMESPEC", Help: "restrict --values report to a time window"},
			{Long: "timezone", Short: 'Z', Arg: "TZ", Help: "set reporting timezone"},
			cli.OptVersion,
			cli.OptHelp,
			{Long: "parallel", Arg: "N"},
			// PCP's short options take -e, which no case handles: a
			// usage error without a message
			{Short: 'e'},
		},
		Handle: o.handle,
	}
}

func (o *options) handle(opt cli.Option, arg string, p *cli.Parsed) {
	if opt.Long == "parallel" {
		if n, ok := cli.Strtol(arg); ok && n > 0 {
			o.parallel = int(n)
		} else {
			p.Errorf("--parallel requires a positive number")
		}
		return
	}
	switch opt.Short {
	case 'e':
		p.Errors++
	case 'c':
		o.config = arg
	case 'h':
		o.host = arg
	case 'p':
		// strtol's leading number, as an unsigned int
		n, _ := cli.Strtol(arg)
		o.port = int(uint32(n))
	case 'L':
		o.load = true
	case 'q':
		o.query = true
	case 'v':
		o.values = true
	case 'a':
		o.all = true
	case 'd':
		o.desc = true
	case 'I':
		o.fullInDom = true
	case 'i':
		o.instances = true
	case 'F':
		o.fast = true
	case 'g':
		o.glob, o.globSet = arg, true
	case 'l':
		o.labels = true
	case 'M':
		o.fullPMID = true
	case 'm':
		o.metrics = true
	case 'n':
		o.names = true
	case 'S':
		o.sources = true
	case 's':
		o.series = true
	case 't':
		o.times = true
	case 'w':
		o.window = arg
	case 'Z':
		o.timezone = arg
	}
}
