// Command pmseries is PCP's pmseries(1) on gopcp's series package: --load
// of archives into Redis in PCP's schema, and queries of what is there
// (PCP's query language and its -a -d -i -l -L -m -s outputs), with
// PCP's options and configuration file (pmseries.conf's [redis] servers,
// [pmseries] stream.maxlen and stream.expire, [discover] exclude.metrics).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/redis/go-redis/v9"
	"github.com/spf13/pflag"

	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/series"
)

func main() {
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

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
	labels       bool
	fullPMID     bool
	metrics      bool
	names        bool
	sources      bool
	series       bool
	times        bool
	window       string
	timezone     string
	version      bool
	help         bool
	parallel     int
}

func flagSet(o *options) *pflag.FlagSet {
	fs := pflag.NewFlagSet("pmseries", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	fs.StringVarP(&o.config, "config", "c", "", "configuration file path")
	fs.StringVarP(&o.host, "host", "h", "", "connect to Redis using given host name")
	fs.IntVarP(&o.port, "port", "p", 6379, "connect to Redis using given TCP/IP port")
	fs.BoolVarP(&o.load, "load", "L", false, "load time series values and metadata")
	fs.BoolVarP(&o.query, "query", "q", false, "perform a time series query (default)")
	fs.BoolVarP(&o.values, "values", "v", false, "extract values for given series or label(s)")
	fs.BoolVarP(&o.all, "all", "a", false, "report all metadata (-dilms) for time series")
	fs.BoolVarP(&o.desc, "desc", "d", false, "metric descriptor for time series")
	fs.BoolVarP(&o.fullInDom, "fullindom", "I", false, "print InDom in verbose format")
	fs.BoolVarP(&o.instances, "instances", "i", false, "report names for time series instances")
	fs.BoolVarP(&o.fast, "fast", "F", false, "query or load series metadata, not values")
	fs.StringVarP(&o.glob, "glob", "g", "", "glob pattern to restrict matches")
	fs.BoolVarP(&o.labels, "labels", "l", false, "list all labels for time series")
	fs.BoolVarP(&o.fullPMID, "fullpmid", "M", false, "print PMID in verbose format")
	fs.BoolVarP(&o.metrics, "metrics", "m", false, "report names and expressions for time series")
	fs.BoolVarP(&o.names, "names", "n", false, "print label names only, not values")
	fs.BoolVarP(&o.sources, "sources", "S", false, "report names for time series sources")
	fs.BoolVarP(&o.series, "series", "s", false, "print series ID for metrics, instances and sources")
	fs.BoolVarP(&o.times, "times", "t", false, "print numeric time stamps (in milliseconds)")
	fs.StringVarP(&o.window, "window", "w", "", "restrict --values report to a time window")
	fs.StringVarP(&o.timezone, "timezone", "Z", "", "set reporting timezone")
	fs.IntVar(&o.parallel, "parallel", 2, "archives of different hosts loaded at once (gopcp)")
	fs.BoolVarP(&o.version, "version", "V", false, "display version number and exit")
	fs.BoolVarP(&o.help, "help", "?", false, "show this usage message and exit")
	return fs
}

func usage(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprintf(w, "Usage: pmseries [options] [query ... | labels ... | series ... | source ...]\n\nOptions:\n%s", fs.FlagUsages())
}

func run(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
	var o options
	fs := flagSet(&o)
	if err := fs.Parse(argv[1:]); err != nil {
		fmt.Fprintf(stderr, "pmseries: %v\n", err)
		usage(stderr, fs)
		return 1
	}
	if o.help {
		usage(stderr, fs)
		return 0
	}
	if o.version {
		fmt.Fprintln(stdout, "pmseries version 6.0.3 (gopcp)")
		return 0
	}
	cfg, err := readConfig(o.config)
	if err != nil {
		fmt.Fprintf(stderr, "pmseries: cannot setup from configuration file %s: %v\n", o.config, err)
		return 1
	}
	servers := cfg.Servers()
	if len(servers) == 0 || o.host != "" || fs.Changed("port") {
		h := o.host
		if h == "" {
			h = "localhost"
		}
		servers = []string{fmt.Sprintf("%s:%d", h, o.port)}
	}
	meta := o.all || o.desc || o.instances || o.labels || o.metrics || o.series || o.fullInDom || o.fullPMID
	if o.load && (meta || o.sources || o.values || o.window != "") {
		fmt.Fprintln(stderr, "pmseries: error - cannot use load and reporting options together")
		usage(stderr, fs)
		return 1
	}
	if o.load && o.query {
		fmt.Fprintln(stderr, "pmseries: error - cannot use load and querying options together")
		usage(stderr, fs)
		return 1
	}
	c, err := series.Connect(ctx, servers)
	if err != nil {
		fmt.Fprintf(stderr, "pmseries: [Error] %v\n", err)
		return 1
	}
	defer c.Close()
	args := fs.Args()
	if o.load {
		return load(ctx, c, cfg, &o, args, stderr)
	}
	return query(ctx, c, &o, args, stdout, stderr)
}

// readConfig reads the configuration file given, or PCP's default
// ($PCP_SYSCONF_DIR/pmseries/pmseries.conf) when it is there.
func readConfig(name string) (series.Config, error) {
	if name == "" {
		dir, ok := pcpconf.Get("PCP_SYSCONF_DIR")
		if !ok {
			dir = "/etc/pcp"
		}
		name = filepath.Join(dir, "pmseries", "pmseries.conf")
		if _, err := os.Stat(name); err != nil {
			return series.Config{}, nil
		}
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return series.ParseConfig(f)
}

// loadPaths turns --load's arguments into archive paths: each path as it
// is, or the source.path / source.name of a {...} load expression.
func loadPaths(args []string) ([]string, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("found no context to load")
	}
	joined := strings.Join(args, " ")
	if strings.HasPrefix(joined, "{") {
		p, err := series.LoadSource(joined)
		if err != nil {
			return nil, err
		}
		return []string{p}, nil
	}
	return args, nil
}

func load(ctx context.Context, c redis.UniversalClient, cfg series.Config, o *options, args []string, stderr io.Writer) int {
	paths, err := loadPaths(args)
	if err != nil {
		fmt.Fprintf(stderr, "pmseries: [Error] %v\n", err)
		return 1
	}
	opt := cfg.LoadOptions()
	opt.MetadataOnly = o.fast
	stats, err := series.LoadAll(ctx, c, paths, opt, o.parallel)
	for _, s := range stats {
		if s.Name == "" {
			continue
		}
		fmt.Fprintf(stderr, "pmseries: [Info] processed %d archive records from %s\n", s.Records, s.Name)
		if s.Refused > 0 {
			fmt.Fprintf(stderr, "pmseries: [Info] %d values of %s were in Redis already (or newer ones were)\n", s.Refused, s.Name)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "pmseries: [Error] %v\n", err)
		return 1
	}
	return 0
}
