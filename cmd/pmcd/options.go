package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/gopcp/gopcp/internal/getopt"
	"github.com/gopcp/gopcp/internal/pcpconf"
)

// options are pmcd's command line settings, named as in PCP's pmcd(1).
type options struct {
	// envWarnings are what PCP's pmcd logs of the PMCD_* variables it
	// took, written bare once the log is open.
	envWarnings []string
	usage       bool
	foreground  bool
	hostname    string
	username    string
	config      string
	pduLimit    int
	credsWait   int // -q, seconds
	timeout     int // -t, seconds; -1 unset
	verify      bool
	ifaces      []string
	ports       []int
	socket      string
	socketSet   bool
	reqAuth     bool
	logPath     string
	fatalPath   string
	nsPath      string
	uniqNames   bool
	trace       int
	local       bool // PMCD_LOCAL: loopback only
	pOptions    int  // how many -p options were given
	// envPortsBad: PMCD_PORT is set and an element of it does not read.
	// libpcp then keeps -EINVAL as its count of ports, so PCP's pmcd
	// binds nothing and does not start, and a -p after it asks for a
	// port list of that negative size (noMem).
	envPortsBad bool
	noMem       bool
	// valueErrors counts bad option values (as opposed to unknown
	// options or missing arguments, which PCP's pmcd takes as -?).
	valueErrors int
}

func command(o *options) *getopt.Command {
	return &getopt.Command{
		Name:  "pmcd",
		Usage: "[options]",
		Options: []getopt.Option{
			getopt.Header("General options"),
			// -D is pmcd's own, as in PCP's pmcd: a bad one is a bad
			// value (pmcd not started), not a request for usage.
			{Long: "debug", Short: 'D', Arg: "DBG"},
			{Long: "namespace", Short: 'n', Arg: "FILE", Help: "use an alternative PMNS"},
			{Long: "uniqnames", Short: 'N', Arg: "FILE", Help: "like -n but only one name allowed for each PMID"},
			{Long: "help", Short: '?', Help: "show this usage message and exit"},
			getopt.Header("Service options"),
			{Short: 'A', Help: "disable service advertisement"},
			{Long: "foreground", Short: 'f', Help: "run in the foreground"},
			{Long: "hostname", Short: 'H', Arg: "HOST", Help: "set the hostname to be used for pmcd.hostname metric"},
			{Long: "username", Short: 'U', Arg: "USER", Help: "in daemon mode, run as named user [default pcp]"},
			getopt.Header("Configuration options"),
			{Long: "config", Short: 'c', Arg: "PATH", Help: "path to configuration file"},
			{Short: 'L', Arg: "BYTES", Help: "maximum size for PDUs from clients [default 65536]"},
			{Short: 'q', Arg: "TIME", Help: "PMDA initial negotiation timeout (seconds) [default 3]"},
			{Short: 't', Arg: "TIME", Help: "PMDA response timeout (seconds) [default 5]"},
			{Long: "verify", Short: 'v', Help: "check validity of pmcd configuration, then exit"},
			getopt.Header("Connection options"),
			{Long: "interface", Short: 'i', Arg: "ADDR", Help: "accept connections on this IP address"},
			{Long: "port", Short: 'p', Arg: "N", Help: "accept connections on this port"},
			{Long: "socket", Short: 's', Arg: "PATH", Help: "Unix domain socket file [default $PCP_RUN_DIR/pmcd.socket]"},
			{Long: "remotecert", Short: 'Q', Help: "require remote clients to provide a certificate"},
			{Long: "reqauth", Short: 'S', Help: "require all clients to authenticate"},
			getopt.Header("Diagnostic options"),
			{Long: "trace", Short: 'T', Arg: "FLAG", Help: "Event trace control"},
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
	case 'D':
		if !getopt.ValidDebug(arg) {
			o.valueErrors++
			p.Errorf("unrecognized debug options specification (%s)", arg)
		}
	case 'n', 'N':
		o.nsPath, o.uniqNames = arg, opt.Short == 'N'
	case 'A', 'Q':
		// No service advertisement and no TLS in this pmcd.
	case 'f':
		o.foreground = true
	case 'H':
		o.hostname = arg
	case 'U':
		o.username = arg
	case 'c':
		o.config = arg
	case 'L':
		// PCP's (int)strtol(arg, NULL, 0): base from the prefix,
		// trailing text ignored, cut to an int.
		v, _, _ := getopt.CStrtol(arg, 0)
		n := int32(v)
		if n <= 0 {
			o.valueErrors++
			p.Errorf("-L requires a positive value")
			return
		}
		o.pduLimit = int(n)
	case 'q':
		n, ok := cInt(arg)
		if !ok || n <= 0 {
			o.valueErrors++
			p.Errorf("-q requires a positive numeric argument")
			return
		}
		o.credsWait = n
	case 't':
		n, ok := cInt(arg)
		if !ok || n < 0 {
			o.valueErrors++
			p.Errorf("-t requires a positive numeric argument")
			return
		}
		o.timeout = n
	case 'v':
		o.verify = true
	case 'i':
		o.ifaces = append(o.ifaces, arg)
	case 'p':
		o.pOptions++
		if o.envPortsBad {
			// The first element reads, so libpcp grows its list from
			// the negative count: the allocation fails and pmcd exits.
			if _, ok := portNumber(strings.SplitN(arg, ",", 2)[0]); ok {
				o.noMem = true
			}
		}
		for _, f := range strings.Split(arg, ",") {
			n, ok := portNumber(f)
			if !ok {
				o.valueErrors++
				p.Errorf("-p requires a positive numeric argument (%s)", arg)
				return
			}
			o.ports = append(o.ports, n)
		}
	case 's':
		o.socket, o.socketSet = arg, true
	case 'S':
		o.reqAuth = true
	case 'T':
		n, ok := cInt(arg)
		if !ok || n < 0 {
			o.valueErrors++
			p.Errorf("-T requires a positive numeric argument")
			return
		}
		o.trace = n
	case 'l':
		o.logPath = arg
	case 'x':
		o.fatalPath = arg
	}
}

// defaults fills in what the options left unset, from PCP's environment
// and pcp.conf as PCP's pmcd does.
func (o *options) defaults() {
	// Without -c, pmcd.conf is the one $PCP_PMCDCONF_PATH names in the
	// environment; else (config left empty) the built-in configuration
	// of in-process agents, even where PCP's pmcd.conf exists: -c
	// /etc/pcp/pmcd/pmcd.conf serves that one.
	if o.config == "" {
		o.config = os.Getenv("PCP_PMCDCONF_PATH")
	}
	// PCP's pmcd takes PMCD_PORT's ports first and -p's after them (a
	// port in both is bound once), and says so in its log.
	if v, ok := os.LookupEnv("PMCD_PORT"); ok && !o.envPortsBad {
		env, _ := envPorts(v)
		o.ports = append(env, o.ports...)
		// PCP counts PMCD_PORT's ports and then one for each -p.
		o.envWarnings = append(o.envWarnings, fmt.Sprintf("Warning: nports=%d from PMCD_PORT=%s in environment", len(env)+o.pOptions, v))
	}
	if len(o.ports) == 0 {
		o.ports = []int{44321}
	}
	// PMCD_LOCAL, a non-zero number (atoi's), keeps pmcd to this host's
	// clients.
	if v, ok := os.LookupEnv("PMCD_LOCAL"); ok && getopt.CAtoi(v) != 0 {
		o.local = true
		o.ifaces = append(o.ifaces, "INADDR_LOOPBACK")
		o.envWarnings = append(o.envWarnings, fmt.Sprintf("Warning: localhost only from PMCD_LOCAL=%s in environment", v))
	}
	if !o.socketSet {
		o.socket = confVar("PCP_RUN_DIR", "/run/pcp") + "/pmcd.socket"
	}
	if o.logPath == "" {
		o.logPath = confVar("PCP_LOG_DIR", "/var/log/pcp") + "/pmcd/pmcd.log"
	}
	if o.fatalPath == "" {
		o.fatalPath = "/dev/tty"
	}
}

// confVar is a pcp.conf variable, the environment first, else def.
func confVar(name, def string) string {
	if v, ok := pcpconf.Get(name); ok && v != "" {
		return v
	}
	return def
}

// envPorts are PMCD_PORT's ports, read as -p's are; false when one
// does not read, which PCP's pmcd refuses (see envPortsBad).
func envPorts(v string) ([]int, bool) {
	var out []int
	for _, f := range strings.Split(v, ",") {
		n, ok := portNumber(f)
		if !ok {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

// noMemMessage is what libpcp's pmNoMem says when a -p follows a
// PMCD_PORT that did not read: the port count is -EINVAL (-22) and the
// list is grown to (count+1) ints, a size_t of 2^64-84.
func noMemMessage() string {
	count := int64(-22)
	return fmt.Sprintf("__pmAddPorts: cannot grow port list: malloc(%d) failed: Cannot allocate memory", uint64((count+1)*4))
}

// cInt reads -q, -t and -T as PCP's pmcd does: (int)strtol(s, &end,
// 10), refused unless end is the string's end.
func cInt(s string) (int, bool) {
	n, ok := getopt.Strtol(s)
	return int(int32(n)), ok
}

// portNumber reads one of -p's comma-separated ports as libpcp's
// __pmAddPorts does: strtol with base 0 over the whole element (an empty
// one is 0), the long cut to an int, refused below zero. What binds is
// the number's low 16 bits (htons); the log's table shows it whole.
func portNumber(s string) (int, bool) {
	n, end, _ := getopt.CStrtol(s, 0)
	// Out of range saturates in C, and LONG_MAX or LONG_MIN cut to an
	// int is negative.
	if end != len(s) || int32(n) < 0 {
		return 0, false
	}
	return int(int32(n)), true
}
