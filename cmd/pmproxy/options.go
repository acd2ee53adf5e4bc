package main

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/internal/getopt"
	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmproxy"
	"github.com/gopcp/gopcp/series"
)

// options are pmproxy's command line settings, named as in PCP's
// pmproxy(1).
type options struct {
	usage       bool
	foreground  bool // -f or -F
	managed     bool // -F: in the foreground, yet switching user as a daemon
	daemonChild bool // the copy daemonize started, in the background
	config      string
	ifaces      []string
	ports       []int // PMPROXY_PORT's, then each -p's, in order
	portCount   int   // PMPROXY_PORT's ports and one for each -p, as PCP's log counts them
	envPortBad  bool  // PMPROXY_PORT set and not a list of ports
	noMem       bool  // a -p after a bad PMPROXY_PORT: libpcp's fatal allocation
	socket      string
	logPath     string
	statsDir    string // PCP_TMP_DIR/pmproxy, for pmproxy_init's agent
	pidPath     string // PCP_RUN_DIR/pmproxy.pid, in daemon and systemd modes
	archiveDir  string // PCP_ARCHIVE_DIR: where [discover] looks without a path
	fatalPath   string
	username    string
	userGiven   bool // -U given, even as "": PCP's pmproxy then switches to exactly that
	finish      time.Duration
	pduLimit    int
	local       bool
	redisHost   string // -h
	redisPort   int    // -r; 0 is not given (6379)
	traceDisc   bool   // -D discovery (or all): discovery says what it does

	valueErrors int
}

func command(o *options) *getopt.Command {
	return &getopt.Command{
		Name:  "pmproxy",
		Usage: "[options]",
		Options: []getopt.Option{
			getopt.Header("General options"),
			// -D is pmproxy's own, as in PCP's pmproxy (pmgetopt_r):
			// a bad one is a bad value (pmproxy not started), not a
			// request for usage.
			{Long: "debug", Short: 'D', Arg: "DBG"},
			{Long: "help", Short: '?', Help: "show this usage message and exit"},
			getopt.Header("Service options"),
			{Short: 'A', Help: "disable service advertisement"},
			{Long: "deprecated", Short: 'd', Help: "backward-compatibility mode; no REST APIs"},
			{Long: "foreground", Short: 'f', Help: "run in the foreground"},
			{Long: "systemd", Short: 'F', Help: "run in systemd mode"},
			{Long: "timeseries", Short: 't', Help: "automatic, scalable timeseries; REST APIs"},
			{Long: "username", Short: 'U', Arg: "USER", Help: "in daemon mode, run as named user [default pcp]"},
			getopt.Header("Configuration options"),
			{Long: "config", Short: 'c', Arg: "PATH", Help: "path to configuration file (implies --timeseries)"},
			// PCP's table lists -L without an argument while its
			// getopt string takes one: shown as the table says,
			// read as the string says.
			{Short: 'L', LongOnly: true, Help: "maximum size for PDUs from clients [default 65536]"},
			{Short: 'L', Arg: "BYTES"},
			getopt.Header("Connection options"),
			{Long: "interface", Short: 'i', Arg: "ADDR", Help: "accept connections on this IP address"},
			{Long: "port", Short: 'p', Arg: "PORT", Help: "accept connections on this port"},
			{Long: "socket", Short: 's', Arg: "PATH", Help: "Unix domain socket file [default $PCP_RUN_DIR/pmproxy.socket]"},
			{Long: "redisport", Short: 'r', Arg: "PORT", Help: "Connect to Redis instance on this TCP/IP port (implies --timeseries)"},
			{Long: "redishost", Short: 'h', Arg: "HOST", Help: "Connect to Redis instance on this host name (implies --timeseries)"},
			getopt.Header("Diagnostic options"),
			{Short: 'T', Arg: "TIME", Help: "terminate after an elapsed time interval"},
			{Long: "log", Short: 'l', Arg: "PATH", Help: "redirect diagnostics and trace output"},
			{Short: 'x', Arg: "PATH", Help: "fatal messages at startup sent to file [default /dev/tty]"},
		},
		Handle: o.handle,
	}
}

func (o *options) handle(opt getopt.Option, arg string, p *getopt.Parsed) {
	switch opt.Short {
	case '?':
		o.usage = true
	case 'A', 'd', 't':
		// No service advertisement here; the REST API is always on.
	case 'h':
		o.redisHost = arg
	case 'D':
		if !getopt.ValidDebug(arg) {
			o.valueErrors++
			p.Errorf("unrecognized debug options specification (%s)", arg)
		}
		for _, tok := range strings.Split(arg, ",") {
			if strings.EqualFold(tok, "discovery") || strings.EqualFold(tok, "all") {
				o.traceDisc = true
			}
		}
	case 'f', 'F':
		if o.foreground {
			o.valueErrors++
			p.Errorf("at most one of -f and -F allowed")
			return
		}
		o.foreground = true
		o.managed = opt.Short == 'F'
	case 'U':
		o.username = arg
		o.userGiven = true
	case 'c':
		o.config = arg
	case 'L':
		n := strtol0(arg)
		if n <= 0 {
			o.valueErrors++
			p.Errorf("-L requires a positive value")
			return
		}
		o.pduLimit = int(n)
	case 'i':
		o.ifaces = append(o.ifaces, arg)
	case 'p':
		ports, ok := parsePorts(arg)
		if o.envPortBad && !o.noMem {
			// libpcp's list then has a negative length, and the
			// first port it adds asks for an impossible size
			first, _, _ := strings.Cut(arg, ",")
			if _, ok := parsePorts(first); ok {
				o.noMem = true
				return
			}
		}
		if !ok {
			o.valueErrors++
			p.Errorf("-p requires a positive numeric argument (%s)", arg)
			return
		}
		o.ports = append(o.ports, ports...)
		o.portCount++
	case 'r':
		n := strtol0(arg)
		if n <= 0 {
			o.valueErrors++
			p.Errorf("-r requires a positive value")
			return
		}
		o.redisPort = int(n)
	case 's':
		o.socket = arg
	case 'T':
		d, err := pmapi.ParseInterval(arg)
		if err != nil {
			o.valueErrors++
			p.Errorf("bad -T interval format:")
			return
		}
		o.finish = d
	case 'l':
		o.logPath = arg
	case 'x':
		o.fatalPath = arg
	}
}

// parsePorts reads a -p or PMPROXY_PORT list as libpcp's __pmAddPorts
// does: each comma-separated element a whole C strtol in base 0 (0x16
// hexadecimal, 010 octal, blanks only before it, an empty one 0), the
// long cut to a C int, refused below zero. The ports are what PCP's
// pmproxy then binds, the numbers' low 16 bits (htons); 0 is a port the
// system picks.
func parsePorts(s string) ([]int, bool) {
	s, _, _ = strings.Cut(s, "\x00") // a C string ends at its first NUL
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, end, _ := getopt.CStrtol(f, 0)
		if end != len(f) || int32(n) < 0 {
			return nil, false
		}
		out = append(out, int(uint16(n)))
	}
	return out, true
}

// envPorts reads PMPROXY_PORT as PCP's pmproxy does, before its
// options: its ports come first in the list -p's are added to.
func (o *options) envPorts() {
	if v, set := os.LookupEnv("PMPROXY_PORT"); set {
		ps, ok := parsePorts(v)
		o.ports, o.portCount, o.envPortBad = ps, len(ps), !ok
	}
}

// defaults fills in what the options left unset, as PCP's pmproxy does:
// 44322 and 44323 (both serving both protocols) when neither
// PMPROXY_PORT nor -p gave a port; PMPROXY_LOCAL's loopback interface
// after -i's; the log under PCP_LOG_DIR/pmproxy. It says whether
// PMPROXY_PORT is not a list of ports, which PCP's pmproxy refuses to
// start with.
func (o *options) defaults() (badPort bool) {
	if o.envPortBad {
		return true
	}
	if o.portCount == 0 {
		o.ports = []int{44322, 44323}
	}
	if n, err := strconv.Atoi(os.Getenv("PMPROXY_LOCAL")); err == nil && n != 0 {
		o.local = true
		o.ifaces = append(o.ifaces, "INADDR_LOOPBACK")
	}
	if o.socket == "" {
		if v := os.Getenv("PMPROXY_SOCKET"); v != "" {
			o.socket = v
		} else {
			o.socket = confVar("PCP_RUN_DIR", "/run/pcp") + "/pmproxy.socket"
		}
	}
	if o.logPath == "" {
		o.logPath = confVar("PCP_LOG_DIR", "/var/log/pcp") + "/pmproxy/pmproxy.log"
	}
	o.pidPath = confVar("PCP_RUN_DIR", "/run/pcp") + "/pmproxy.pid"
	o.statsDir = confVar("PCP_TMP_DIR", "/var/lib/pcp/tmp") + "/pmproxy"
	o.archiveDir = confVar("PCP_ARCHIVE_DIR", "/var/log/pcp/pmlogger")
	return badPort
}

// readConf is pmproxy's configuration as PCP's pmproxy reads it:
// libpcp_web's files for -c's name (series.IniFiles: an absolute path,
// else a program's name, "pmproxy" without -c), none of them required;
// then the Redis servers -h and -r say, or localhost:6379 when the files
// name none, put where PCP's puts them ([redis] servers, or [pmseries]
// servers when only that one was set).
func (o *options) readConf() pmproxy.Conf {
	name := o.config
	if name == "" {
		name = "pmproxy"
	}
	dir, _ := pcpconf.Get("PCP_SYSCONF_DIR")
	conf := pmproxy.Conf(series.ReadIniFiles(series.IniFiles(name, dir, os.Getenv("HOME"))))
	key := "redis.servers"
	_, set := conf[key]
	if !set {
		if _, ok := conf["pmseries.servers"]; ok {
			key, set = "pmseries.servers", true
		}
	}
	port := o.redisPort
	if port == 0 {
		port = 6379
	}
	if !set || o.redisHost != "" || port != 6379 {
		host := o.redisHost
		if host == "" {
			host = "localhost"
		}
		conf[key] = host + ":" + strconv.Itoa(port)
	}
	return conf
}

func confVar(name, def string) string {
	if v, ok := pcpconf.Get(name); ok && v != "" {
		return v
	}
	return def
}
