// Command pmlogger is PCP's pmlogger(1): it records metrics from a pmcd
// into an archive (version 3, or 2 with -V 2) as its configuration file
// says, stopping after -s samples or bytes, at -T's time, or on SIGINT,
// SIGTERM or SIGHUP... (SIGHUP switches volumes, as in PCP), and
// switching data volumes by -v. The work is package pmlogger's; this
// file holds the options and messages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/access"
	_ "github.com/gopcp/gopcp/agents/all"
	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/internal/identity"
	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/internal/pcptz"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmlogger"
	"github.com/gopcp/gopcp/pmns"
)

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stderr))
}

type flags struct {
	// what ports made, for cleanup
	local   net.Listener
	removes []func()
	// removesMu guards removes: a SIGXFSZ's exit runs them from another
	// goroutine.
	removesMu sync.Mutex

	config, logFile, labelHost, note, endTime string
	endTimeSet, labelHostSet                  bool
	pmns                                      string // -n, loaded once the log is open
	check, report, localTZ, primary, linger   bool
	daemon, localPMDA, notify                 bool
	username                                  string
	targetPID                                 int
	pmlcVersion                               int
	interval                                  time.Duration
	version                                   int
	samples, volSamples                       int
	rscFD                                     int
	bytes, volBytes                           int64
	exitTime, volTime                         time.Duration
	errs                                      []string
}

// maxLabelHost is the most of -H's host name that pmlogger keeps, the
// bytes before PM_LOG_MAXHOSTLEN's terminating zero.
const maxLabelHost = 63

func command(f *flags) *cli.Command {
	return &cli.Command{
		Name:  "pmlogger",
		Usage: "[options] archive",
		Options: []cli.Option{
			cli.Header("Options"),
			{Long: "config", Short: 'c', Arg: "FILE", Help: "file to load configuration from"},
			{Long: "check", Short: 'C', Help: "parse configuration and exit"},
			// pmlogger refuses a bad -D in its own words
			cli.OptDebugFlag,
			cli.OptHost,
			{Long: "labelhost", Short: 'H', Arg: "LABELHOST", Help: "override the hostname written into the label"},
			{Long: "pmlc-ipc-version", Short: 'I', Arg: "VERSION", Help: "set IPC version for pmlc port [defaily LOG_PDU_VERSION]"},
			{Long: "log", Short: 'l', Arg: "FILE", Help: "redirect diagnostics and trace output"},
			{Long: "linger", Short: 'L', Help: "run even if not primary logger instance and nothing to log"},
			{Long: "note", Short: 'm', Arg: "MSG", Help: "descriptive note to be added to the port map file"},
			cli.OptSpecLocal,
			{Long: "local-PMDA", Short: 'o', Help: "metrics sourced without connecting to pmcd"},
			// Not cli.OptNamespace: the file is loaded after the log is
			// open (run), the last -n winning.
			{Long: "namespace", Short: 'n', Arg: "FILE", Help: "use an alternative PMNS"},
			{Long: "notify", Short: 'N', Help: "notify service manager (if any) when started and ready"},
			{Long: "PID", Short: 'p', Arg: "PID", Help: "Log specified metric for the lifetime of the pid"},
			{Long: "primary", Short: 'P', Help: "execute as primary logger instance"},
			{Long: "report", Short: 'r', Help: "report record sizes and archive growth rate"},
			{Long: "size", Short: 's', Arg: "SIZE", Help: "terminate after endsize has been accumulated"},
			{Long: "interval", Short: 't', Arg: "DELTA", Help: "default logging interval [default 60.0 seconds]"},
			{Long: "finish", Short: 'T', Arg: "TIME", Help: "end of the time window"},
			{Short: 'u', Help: "output is unbuffered [default now, so -u is a no-op]"},
			{Long: "username", Short: 'U', Arg: "USER", Help: "in daemon mode, run as named user [default pcp]"},
			{Long: "volsize", Short: 'v', Arg: "SIZE", Help: "switch log volumes after size has been accumulated"},
			{Long: "version", Short: 'V', Arg: "NUM", Help: "version for archive (default and only version is 2)"},
			{Short: 'x', Arg: "FD", Help: "control file descriptor for running from pmRecordControl(3)"},
			{Short: 'y', Help: "set timezone for times to local time rather than from PMCD host"},
			cli.OptHelp,
		},
		// The usage text is PCP's, word for word (its -I misspelling and
		// its dated -V line included), as scripts and users compare it.
		Handle: f.handle,
	}
}

func (f *flags) handle(o cli.Option, arg string, p *cli.Parsed) {
	switch o.Short {
	case 'c':
		f.config = arg
	case 'C':
		f.check = true
	case 'H':
		// PCP's keeps what a version 2 label holds, whatever the
		// archive's version.
		f.labelHost, f.labelHostSet = arg[:min(len(arg), maxLabelHost)], true
	case 'I':
		n, whole := cInt(arg)
		switch {
		case !whole:
			p.Errorf("non-numeric pmlc IPC version (%s)", arg)
		case n < 2 || n > 3:
			p.Errorf("unsupported pmlc IPC version (%d)", n)
		default:
			f.pmlcVersion = n
		}
	case 'L':
		f.linger = true
	case 'o':
		f.localPMDA = true
	case 'N':
		f.notify = true
	case 'p':
		// the pid checked, and reported, is the int strtol's gives
		n, whole := cInt(arg)
		switch {
		case !whole:
			p.Errorf("invalid process identifier (%s)", arg)
		case !ownfile.Alive(n):
			p.Errorf("PID error - no such process (%d)", n)
		default:
			f.targetPID = n
		}
	case 'U':
		f.username = arg
		f.daemon = true
	case 'l':
		f.logFile = arg
	case 'n':
		f.pmns = arg
	case 'm':
		f.note = arg
		// pmlogger_check, pmlogger_daily and re-executions start
		// loggers as daemons, which keep a pid file.
		f.daemon = strings.HasPrefix(arg, "pmlogger_check") || strings.HasPrefix(arg, "pmlogger_daily") || strings.HasPrefix(arg, "reexec")
	case 'P':
		f.primary = true
		f.daemon = true
	case 'r':
		f.report = true
	case 's':
		if err := parseSize(arg, &f.samples, &f.bytes, &f.exitTime); err != nil {
			p.Errorf("illegal size argument '%s' for exit size", arg)
		}
	case 'v':
		if err := parseSize(arg, &f.volSamples, &f.volBytes, &f.volTime); err != nil {
			p.Errorf("illegal size argument '%s' for volume size", arg)
		}
	case 't':
		d, err := pmapi.ParseInterval(arg)
		if ie := (*pmapi.IntervalError)(nil); errors.As(err, &ie) {
			// libpcp's two lines: the text and a caret under the fault.
			p.Errorf("illegal -t argument\n%s", strings.TrimSuffix(ie.Report(), "\n"))
		} else if err != nil {
			p.Errorf("illegal -t argument\n%v", err)
		}
		f.interval = d
	case 'T':
		// PCP's tests that -T was given, not that it is non-empty
		f.endTime, f.endTimeSet = arg, true
	case 'V':
		n, whole := cInt(arg)
		if !whole || (n != 2 && n != 3) {
			p.Errorf("-V requires a version number of 2 or 3")
		}
		f.version = n
	case 'x':
		n, whole := cInt(arg)
		if !whole || n < 0 {
			p.Errorf("-x requires a non-negative numeric argument")
		}
		f.rscFD = n
	case 'y':
		f.localTZ = true
	}
}

// cInt reads a number as PCP's pmlogger reads its numeric options,
// (int)strtol(arg, &end, 10) with *end checked: white space, a sign and
// "" are taken, and a number too big for an int keeps its low 32 bits.
// whole reports that all of arg was read.
func cInt(arg string) (n int, whole bool) {
	v, whole := cli.Strtol(arg)
	return int(int32(v)), whole
}

func run(argv []string, stdin io.Reader, stderr io.Writer) int {
	f, p, code := parseArgs(argv, stderr)
	if f == nil {
		return code
	}
	prog := p.Progname()
	var rsc *os.File
	if f.rscFD >= 0 {
		// The launcher's session channel; its start is the session's.
		// A descriptor the launcher did not leave open is never heard
		// from: PCP's select on it fails and its session control with
		// it, silently.
		if ownfile.Inherited(f.rscFD) {
			rsc = os.NewFile(uintptr(f.rscFD), "recording session control")
		}
		if f.note == "" {
			f.note = "-x " + strconv.Itoa(f.rscFD)
		}
	}
	sessionStart := time.Now()
	// A daemon (-P, -U, or started by PCP's scripts) runs as the PCP
	// user, or -U's, from here on.
	if f.daemon && !identity.Set(daemonUser(f.username), stderr, prog) {
		return 1
	}

	// Messages go to the log file (pmlogger.log unless -l says), which
	// starts with a header and becomes the standard error, so that a
	// re-execution after SIGUSR2 (PMLOGGER_REEXEC set) goes on writing
	// to it, headerless, as PCP's does; with -C they go to stderr.
	logw := stderr
	var footer func() // the log's last line, nil without a log of our making
	reexec := os.Getenv("PMLOGGER_REEXEC") != ""
	if !f.check && !reexec {
		name := f.logFile
		if name == "" {
			name = "pmlogger.log"
		}
		lf, failed := openLog(name, stderr, prog)
		if lf != nil {
			defer lf.Close()
			logw = lf
			if stderr == io.Writer(os.Stderr) {
				syscall.Dup3(int(lf.Fd()), 2, 0)
			}
		}
		// Every exit after this ends the log with its footer, as PCP's,
		// on standard error too when that is the log.
		footer = func() {
			ownfile.WriteLogFooter(logw)
		}
		defer footer()
		ownfile.WriteLogHeader(logw, "pmlogger")
		if failed {
			fmt.Fprintf(logw, "%s: Warning: log file (%s) creation failed\n", prog, name)
		}
	}
	ownfile.Notify(logw, prog, "Info", "Start")
	// -n is loaded here, after the log is open, as PCP's pmlogger loads
	// it, so that its complaints go to the log.
	if f.pmns != "" {
		tree, err := pmns.Load(f.pmns)
		if err != nil {
			var pe *pmns.ParseError
			if errors.As(err, &pe) {
				fmt.Fprint(logw, pe.Report())
			}
			fmt.Fprintf(logw, "%s: Cannot load namespace from \"%s\": %s\n", prog, f.pmns, pcp.TextOf(err))
			return 1
		}
		p.Namespace = tree
	}

	host := p.Hosts0("local:")
	// SIGINT and SIGTERM end the run; the log names the signal, as PCP's.
	ctx, caught, stopSignals := watchSignals()
	defer stopSignals()
	defer f.exitOnCoreSignals()()
	kind := pmapi.KindHost
	if f.localPMDA {
		// -o: the agents pmcd.conf names run in this process.
		kind, host = pmapi.KindLocal, "local context"
	}
	ctxSrc, err := p.NewSource(ctx, kind, host)
	if err != nil {
		fmt.Fprintf(logw, "%s: Cannot connect to PMCD on host \"%s\": %s\n", prog, host, pcp.TextOf(err))
		return 1
	}
	defer ctxSrc.Close()
	if f.rscFD < 0 && !f.localPMDA {
		// Without -x, pmcd is told who this client is (its command
		// line, in pmcd.client.whoami), as PCP's pmlogger does.
		// PCP ignores a failure (an old pmcd); so do we.
		_ = pmlogger.SetClientID(ctx, ctxSrc, argv)
	}
	// Derived metrics (PCP_DERIVED_CONFIG, or PCP's defaults) can be
	// logged as every PMAPI client sees them.
	ctxSrc = p.WithDerived(ctxSrc, logw)

	cfg, cfgName, access, plan, ok := f.loadConfig(ctx, ctxSrc, stdin, logw, prog)
	if !ok {
		return 1
	}
	fmt.Fprintf(logw, "Config parsed\n")
	if f.check {
		return 0
	}
	name, _ := ctxSrc.HostName(ctx)
	primary := ""
	if f.primary {
		primary = "primary "
	}
	fmt.Fprintf(logw, "Starting %slogger for host \"%s\" via \"%s\"\n", primary, name, host)
	if !f.primary && len(cfg.Statements) == 0 && !f.linger {
		fmt.Fprintf(logw, "Nothing to log, and not the primary logger instance ... good-bye\n")
		return 1
	}

	// PCP's pmlogger reads -T after creating the archive, so a bad one
	// is reported (in libpcp's words) with the archive made.
	opt, endErr := f.loggerOptions(ctx, ctxSrc, p.Args[0], cfgName, access, plan, logw)
	var (
		lg      *pmlogger.Logger
		ln      net.Listener
		archive string
	)
	if endErr == nil {
		// The control port pmlc talks to, recorded in the archive and
		// in the port map file by which PCP's tools find this logger.
		var port int
		ln, port, err = pmlogger.ListenControl(controlEnv(), func(msg string) { fmt.Fprint(logw, msg) })
		if err != nil {
			fmt.Fprintf(logw, "%s: %v\n", prog, err)
			return 1
		}
		defer ln.Close()
		opt.Port = port
		// A name with strftime conversions is expanded, and made
		// unique with a "-NN" suffix (a re-execution may come within
		// the minute).
		lg, archive, err = pmlogger.NewNamed(ctx, ctxSrc, cfg, opt, p.Args[0], time.Now())
	} else {
		// PCP's stops between creating the files and writing their
		// labels: three empty files.
		archive, err = pmlogger.CreateNamed(p.Args[0], time.Now(), opt.Log)
	}
	opt.Archive = archive
	if ne := (*pmlogger.NameError)(nil); errors.As(err, &ne) {
		fmt.Fprintf(os.Stderr, "Error: %v\n", ne)
		return 1
	}
	if err != nil {
		label := f.labelHost
		if !f.labelHostSet {
			label = name
		}
		var pe *os.PathError
		switch {
		case errors.Is(err, os.ErrExist):
			fmt.Fprintf(logw, "__pmLogCreate(%s, %s, ...): File exists\n", label, opt.Archive)
		case errors.As(err, &pe):
			// A volume, metadata or index file that cannot be made.
			fmt.Fprintf(logw, "__pmLogNewFile: failed to create \"%s\": %s\n", pe.Path, pcp.TextOf(pe.Err))
			fmt.Fprintf(logw, "__pmLogCreate(%s, %s, ...): %s\n", label, opt.Archive, pcp.TextOf(pe.Err))
		default:
			fmt.Fprintf(logw, "%s: %v\n", prog, err)
		}
		return 1
	}
	if endErr != nil {
		fmt.Fprintf(stderr, "%s: illegal -T argument\n%s", prog, cli.TimeReport(endErr))
		return 1
	}
	lg.SetConnSpec(host)
	fmt.Fprintf(logw, "Archive basename: %s\n", opt.Archive)
	if f.notify && !reexec {
		// -N: systemd (Type=notify) learns the logger is ready; a
		// re-execution is the same service, already ready.
		notifyServiceManager("READY=1\nMAINPID=" + strconv.Itoa(os.Getpid()))
	}
	defer f.cleanup()
	if code := f.ports(logw, prog, opt.Port, name, opt.Archive); code != 0 {
		lg.Close(context.Background())
		return code
	}

	// SIGHUP switches volumes, as in PCP; it arrives between samples.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	serve := pmlogger.ServeOptions{Control: []net.Listener{ln, f.local}, NewVolume: hup}
	if rsc != nil {
		serve.Session = &pmlogger.Session{Host: name, Log: logw, Start: sessionStart, ExecFailed: footer}
		serve.SessionControl = rsc
	}
	res := lg.Serve(ctx, serve)
	runErr, msg := res.RunErr, res.Stop
	if msg == "" && ctx.Err() != nil {
		msg = fmt.Sprintf("Caught signal %d", caught())
	}
	if err := res.CloseErr; err != nil {
		fmt.Fprintf(logw, "%s: closing the archive: %v\n", prog, err)
	}
	return f.finish(runErr, msg, caught(), argv, ln, logw, prog)
}

// reexecArgs is the command line a re-execution runs: the original one
// without its -m note and with "-mreexec" before the archive name.
func reexecArgs(argv []string) []string {
	var out []string
	for i := 0; i < len(argv); i++ {
		if i > 0 && strings.HasPrefix(argv[i], "-m") {
			if argv[i] == "-m" {
				i++
			}
			continue
		}
		out = append(out, argv[i])
	}
	n := len(out)
	return append(out[:n-1:n-1], "-mreexec", out[n-1])
}

func pcpNow() pcp.Timestamp { return pcp.TimestampOf(time.Now()) }

// pcpFar is the open end of -T's window: PM_MAX_TIME_T, a 64-bit
// time_t's largest.
func pcpFar() pcp.Timestamp { return pcp.Timestamp{Sec: math.MaxInt64} }

// ports makes what lets pmlc and PCP's scripts find this logger, in
// PCP's order: the pid file of a daemon, the Unix-domain control socket,
// the port map file and, for the primary logger, its links. A non-zero
// result is the exit status (another primary is running).
func (f *flags) ports(logw io.Writer, prog string, port int, host, archive string) int {
	runDir, _ := pcpconf.Get("PCP_RUN_DIR")
	tmp, _ := pcpconf.Get("PCP_TMP_DIR")
	if tmp == "" {
		tmp = "/var/tmp"
	}
	pid := os.Getpid()
	if f.daemon {
		// As PCP's, quietly without one when it cannot be written; and
		// never over, nor removing, one naming another live logger.
		if pf, err := ownfile.TakePID(filepath.Join(runDir, "pmlogger.pid"), pid); err == nil {
			f.onExit(func() { pf.Release() })
		}
	}
	ln, sock := pmlogger.ListenLocal(runDir, pid, func(msg string) { fmt.Fprint(logw, msg) })
	if ln != nil {
		f.local = ln
		f.onExit(func() { ln.Close() })
	}
	pm, err := pmlogger.WritePortMap(filepath.Join(tmp, "pmlogger"), pid, port, host, archive, f.note, f.primary)
	if pm != nil {
		f.onExit(pm.Remove)
	}
	if err != nil {
		fmt.Fprintf(logw, "%s: %v\n", prog, err)
		var pe *pmlogger.PrimaryError
		if errors.As(err, &pe) {
			return 1
		}
	}
	if f.primary && sock != "" {
		link, err := pmlogger.PrimarySocket(runDir, sock)
		if err != nil {
			fmt.Fprintf(logw, "%s: %v\n", prog, err)
			if strings.HasPrefix(err.Error(), "ERROR") {
				return 1
			}
		} else {
			f.onExit(func() { pmlogger.RemoveLink(link, sock) })
		}
	}
	return 0
}

// cleanup removes what ports made, the map files first.
func (f *flags) cleanup() {
	f.removesMu.Lock()
	removes := f.removes
	f.removes = nil
	f.removesMu.Unlock()
	for i := len(removes) - 1; i >= 0; i-- {
		removes[i]()
	}
}

// onExit adds to what cleanup removes.
func (f *flags) onExit(remove func()) {
	f.removesMu.Lock()
	f.removes = append(f.removes, remove)
	f.removesMu.Unlock()
}

// exitOnCoreSignals ends the run as PCP's pmlogger does on SIGXFSZ and
// SIGXCPU (its "core" signals that a Go program can receive): what ports
// made is removed and the process exits at once with the signal's number
// as its status, the archive left as it is. The returned function stops
// watching.
func (f *flags) exitOnCoreSignals() func() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGXFSZ, syscall.SIGXCPU)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			f.cleanup()
			os.Exit(int(s.(syscall.Signal)))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}

// parseArgs reads the command line; a nil result means the run ends,
// with code, after the usage or the errors have been printed.
func parseArgs(argv []string, stderr io.Writer) (*flags, *cli.Parsed, int) {
	f := &flags{interval: 60 * time.Second, rscFD: -1}
	if v, ok := os.LookupEnv("PMLOGGER_INTERVAL"); ok {
		// The default interval in seconds, before -t, as PCP reads it
		// (atoi: leading digits, else 0).
		n := 0
		for _, c := range strings.TrimLeft(v, " \t") {
			if c < '0' || c > '9' {
				break
			}
			n = n*10 + int(c-'0')
		}
		f.interval = time.Duration(n) * time.Second
	}
	cmd := command(f)
	p := cli.Parse(cmd, argv)
	if len(p.Hosts) > 0 && f.primary {
		p.Errorf("-P and -h are mutually exclusive; use -P only when running\n%s on the same (local) host as the PMCD to which it connects.", p.Progname())
	}
	if len(p.Hosts) > 0 && f.localPMDA {
		p.Errorf("-o and -h are mutually exclusive; use -o only when running\n%s on the same (local) host as the DSO PMDA(s) being used.", p.Progname())
	}
	if p.Errors == 0 && !p.Exit {
		switch {
		case !f.check && len(p.Args) == 0:
			p.Errorf("insufficient arguments")
		case f.check && len(p.Args) > 0, len(p.Args) > 1:
			p.Errorf("too many arguments")
		}
	}
	if p.Errors > 0 || p.Exit {
		fmt.Fprint(stderr, p.Report(cmd))
		if p.Exit {
			return nil, nil, 0
		}
		return nil, nil, 1
	}
	return f, p, 0
}

// loadConfig reads the configuration (the -c file or stdin) through the
// preprocessor, parses it, applies its [access] section and resolves its
// metrics against src, writing PCP's messages to logw; ok is false when
// the run ends there.
func (f *flags) loadConfig(ctx context.Context, src pmapi.Source, stdin io.Reader, logw io.Writer, prog string) (cfg *pmlogger.Config, cfgName string, access *access.Control, plan *pmlogger.Plan, ok bool) {
	var text []byte
	var err error
	cfgName = f.config
	if f.config == "" {
		cfgName = "<stdin>"
		text, err = io.ReadAll(stdin)
	} else {
		text, err = os.ReadFile(f.config)
	}
	dir := errors.Is(err, syscall.EISDIR)
	if err != nil && !dir {
		fmt.Fprintf(logw, "%s: Cannot open config file \"%s\": %s\n", prog, f.config, pcp.TextOf(err))
		return
	}
	// pmlogger runs its configuration through "pmcpp -rs -I
	// $PCP_VAR_DIR/config/pmlogger"; pmcpp's complaint is printed and what
	// it wrote before stopping is still parsed, as with PCP. The pass is
	// ours, but the log names the command as PCP's does.
	binDir, _ := pcpconf.Get("PCP_BINADM_DIR")
	varDir, _ := pcpconf.Get("PCP_VAR_DIR")
	fmt.Fprintf(logw, "preprocessor cmd: %s/pmcpp -rs -I %s/config/pmlogger %s\n", binDir, varDir, f.config)
	if dir {
		// A directory opens; pmcpp cannot read it, says so, and
		// writes nothing for the parser.
		fmt.Fprint(logw, (&pmns.CPPError{File: f.config, Msg: "No such file or directory"}).Report())
		text = nil
	} else if text, err = pmlogger.Preprocess(text, f.config); err != nil {
		fmt.Fprint(logw, err.(interface{ Report() string }).Report())
	}
	// pmlogger's first pass looks up the names it finds inside braces
	// all at once; like pmLookupName, only a single name can fail it.
	if names := pmlogger.Pass0Names(text); len(names) > 0 {
		if _, err := src.LookupNames(ctx, names); err != nil && (len(names) > 1 || !errors.Is(err, pcp.ErrNonLeaf)) {
			fmt.Fprintf(logw, "cache_bind(): pmLookupName(%d, ...): %s\n", len(names), pcp.TextOf(err))
			if errors.Is(err, pcp.ErrIPC) {
				fmt.Fprintf(logw, "cache_bind(): Arrgh: lost connection to pmcd, giving up!\n")
				return
			}
		}
	}
	// pmlogger acts on its configuration as its grammar reduces it: the
	// metrics are looked up (their warnings printed) and the [access]
	// rules applied before a later syntax error is met, so what was
	// parsed before an error is resolved first.
	cfg, perr := pmlogger.ParseConfig(string(text), cfgName, f.interval)
	plan, err = pmlogger.ResolvePlan(ctx, src, cfg, cfgName, logw)
	if err != nil {
		fmt.Fprintf(logw, "%s: %s\n", prog, pcp.TextOf(err))
		return
	}
	// A host an [access] rule cannot add ends the run there.
	access, err = pmlogger.BuildAccess(cfg.Access, func(level, note string) {
		ownfile.Notify(logw, prog, level, note)
	})
	if err != nil {
		fmt.Fprintf(logw, "%s\n", err)
		return
	}
	if perr != nil {
		fmt.Fprintf(logw, "%s\n", perr)
		return
	}
	return cfg, cfgName, access, plan, true
}

// finish ends the run after the archive is closed: the last log line,
// and for SIGUSR2 the re-execution PCP's log rotation asks for.
func (f *flags) finish(runErr error, msg string, caught int32, argv []string, ln net.Listener, logw io.Writer, prog string) int {
	if runErr != nil {
		fmt.Fprintf(logw, "%s: %v\n", prog, runErr)
		return 1
	}
	if msg == "" {
		msg = "End of run time"
	}
	if caught == int32(syscall.SIGUSR2) {
		// SIGUSR2: start again with the same arguments (and "-m
		// reexec"), as PCP's log rotation asks; the archive name's
		// conversions give the new archive.
		ownfile.Notify(logw, prog, "Info", "pmlogger: "+msg+", reexec")
		args := reexecArgs(argv)
		fmt.Fprintf(logw, "\n=== pmlogger: reexec cmdlne: %s\n", strings.Join(args, " "))
		f.cleanup()
		ln.Close()
		os.Setenv("PMLOGGER_REEXEC", "1")
		path, err := exec.LookPath(args[0])
		if err != nil {
			path, _ = os.Executable()
		}
		err = syscall.Exec(path, args, os.Environ())
		fmt.Fprintf(logw, "Error: execvp returned unexpectedly: %v\n", err)
		return 1
	}
	ownfile.Notify(logw, prog, "Info", "pmlogger: "+msg+", exiting")
	if f.notify {
		notifyServiceManager("STOPPING=1")
	}
	return 0
}

// watchSignals returns a context that ends when a signal ending the
// run arrives, and that signal's number once it has: as PCP's, SIGINT,
// SIGTERM, SIGUSR1 and the timer signals finish the archive and exit;
// SIGUSR2 finishes it and re-executes; the terminal's stop signals are
// ignored. stop ends the watch and its goroutine.
func watchSignals() (ctx context.Context, caught func() int32, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var sig atomic.Int32
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGUSR1, syscall.SIGALRM,
		syscall.SIGVTALRM, syscall.SIGPROF, syscall.SIGUSR2)
	signal.Ignore(syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU)
	go func() {
		select {
		case s := <-sigs:
			sig.Store(int32(s.(syscall.Signal)))
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, sig.Load, func() {
		signal.Stop(sigs)
		cancel()
	}
}

// loggerOptions are the logger's options from the flags; the error is
// -T's, its time not understood.
func (f *flags) loggerOptions(ctx context.Context, src pmapi.Source, archive, cfgName string, access *access.Control, plan *pmlogger.Plan, logw io.Writer) (pmlogger.Options, error) {
	if f.version == 0 {
		// Without -V, pcp.conf's PCP_ARCHIVE_VERSION decides, and 2
		// when it is not set, as PCP's pmlogger does.
		f.version = 2
		if v, _ := pcpconf.Get("PCP_ARCHIVE_VERSION"); strings.TrimSpace(v) == "3" {
			f.version = 3
		}
	}
	opt := pmlogger.Options{
		Archive:     archive,
		Version:     f.version,
		ConfigFile:  cfgName,
		Samples:     f.samples,
		Bytes:       f.bytes,
		VolSamples:  f.volSamples,
		VolBytes:    f.volBytes,
		VolTime:     f.volTime,
		Hostname:    f.labelHost,
		HostnameSet: f.labelHostSet,
		Log:         logw,
		Access:      access,
		PMLCVersion: f.pmlcVersion,
		WatchPID:    f.targetPID,
		Plan:        plan,
	}
	// PCP's pmlogger reads pmlc's PDUs within $PMCD_REQUEST_TIMEOUT, of
	// which zero means no limit.
	opt.TZ = os.Getenv("TZ")
	if opt.RequestTimeout = cli.RequestTimeout(); opt.RequestTimeout == 0 {
		opt.RequestTimeout = -1
	}
	if f.report {
		opt.Report = logw
	}
	if f.exitTime > 0 {
		opt.End = time.Now().Add(f.exitTime)
	}
	if f.endTimeSet {
		// -T's times are in pmcd's zone unless -y asks for the local one.
		zone := pcptz.Local(os.LookupEnv("TZ"))
		if z, ok := src.(interface {
			TimeZone(context.Context) (string, error)
		}); ok && !f.localTZ {
			if tz, err := z.TimeZone(ctx); err == nil {
				zone = pcptz.Load(tz)
			}
		}
		now := pcpNow()
		end, err := cli.ParseTime(f.endTime, now, pcpFar(), zone)
		if err != nil {
			return opt, err
		}
		opt.End = end.Time()
		// libpcp's event queue compares times by the difference of
		// their seconds cut to an int: an end 2^31 seconds or more
		// away (as "-N", before the far end of time, always is) looks
		// due already, and PCP's run ends at once.
		if int32(now.Sec-end.Sec) >= 0 {
			opt.End = time.Now()
		}
	}
	return opt, nil
}
