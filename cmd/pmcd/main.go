// Command pmcd is gopcp's Performance Metrics Collection Daemon: it serves
// a namespace to PCP clients and their requests through the agents of its
// pmcd.conf, with PCP's pmcd options; see package pmcd.
//
// With no -c (and no $PCP_PMCDCONF_PATH in the environment) it runs the
// built-in configuration, pmcd.DefaultConf: pmcd's own agent, the Linux
// agent and the sample agent in-process, with the namespace they bring
// (unless -n names one), so that it needs nothing of PCP installed. PCP's
// /etc/pcp/pmcd/pmcd.conf is used only when named with -c.
//
// It always runs in the foreground; without -f it writes its pid to
// $PCP_RUN_DIR/pmcd.pid, as PCP's pmcd does when it becomes a daemon, for
// the scripts that signal it. -A, -Q and -U are accepted and have no
// effect, as this pmcd neither advertises itself, offers TLS nor changes
// user; -T's bits are reported by pmcd.control.trace* but nothing is
// traced.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	// The Go agents this pmcd runs in-process, found by the entry
	// points pmcd.conf "dso" lines name.
	_ "github.com/gopcp/gopcp/agents/all"
	"github.com/gopcp/gopcp/agents/mmv"
	"github.com/gopcp/gopcp/agents/sample"
	"github.com/gopcp/gopcp/internal/getopt"
	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/internal/sigfrom"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmcd"
	"github.com/gopcp/gopcp/pmns"
)

func main() {
	if os.Getenv("GOGC") == "" {
		// pmcd's live heap is small and most of what it allocates dies
		// within a request: collecting at half the default growth keeps
		// its resident memory near PCP's pmcd's for little CPU.
		debug.SetGCPercent(gcPercent)
	}
	procs = procsFromEnv(os.Getenv, runtime.GOMAXPROCS, runtime.NumCPU())
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	// PCP's pmcd sets no handler for these: SIGUSR1 and SIGALRM end it
	// (nothing logged), SIGXFSZ dumps core. Not where it cannot be done.
	_ = sigfrom.AsPCPDaemon()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	// PCP's pmcd logs who sent the signal; where that cannot be known
	// the line says only which signal it was.
	watched := sigfrom.Watch(syscall.SIGINT, syscall.SIGTERM) == nil
	go func() {
		sig := <-sigs
		name := "SIGTERM"
		if sig == os.Interrupt {
			name = "SIGINT"
		}
		if s, ok := sigfrom.Last(sig.(syscall.Signal)); ok && s.PID != 0 {
			name += fmt.Sprintf(" from pid=%d uid=%d", s.PID, s.UID)
		} else if watched {
			name += " from unknown process"
		}
		caught.Store(&name)
		stop()
	}()
	err := run(ctx, os.Args[1:], nil)
	signal.Stop(sigs)
	stop()
	var ex exitError
	switch {
	case errors.As(err, &ex):
		os.Exit(int(ex))
	case err != nil:
		fmt.Fprintf(os.Stderr, "pmcd: %v\n", err)
		os.Exit(1)
	}
}

// procs is the server's share of GOMAXPROCS (procsFromEnv); tests that
// call run leave it zero, which leaves GOMAXPROCS alone.
var procs procsConf

// procsConf is what pmcd.Server may raise GOMAXPROCS to while many clients
// keep it busy: max is MaxProcs, limit ProcsLimit, sched ProcsSched.
type procsConf struct {
	max   int
	limit func() int
	sched func() (run, wait time.Duration, ok bool)
	idle  func() (time.Duration, bool)
}

// procsFromEnv takes pmcd down to one P through gomaxprocs and lets the
// server raise it to at most ncpu, within the CPUs the process may use at
// the time (pmcd.CPULimit), unless getenv has GOMAXPROCS, which is left
// as it is.
func procsFromEnv(getenv func(string) string, gomaxprocs func(int) int, ncpu int) procsConf {
	if getenv("GOMAXPROCS") != "" {
		return procsConf{}
	}
	// pmcd relays PDUs: with a second P and one client the scheduler
	// hands each goroutine woken by the network to another thread. One
	// P serves everything from one thread, as PCP's pmcd serves
	// everything from its select loop; blocking calls still get threads
	// of their own, and the runtime's preemption keeps agent timeouts
	// working. The server takes more Ps while more clients than one
	// keep it busy and its one thread is short of CPU (waits for one as
	// long as it runs, or runs nearly all the time: ThreadsSched).
	// Setting GOMAXPROCS ends the runtime's own following of a
	// container's CPU limit, so the server reads it (CPULimit).
	gomaxprocs(1)
	return procsConf{max: ncpu, limit: pmcd.CPULimit, sched: pmcd.ThreadsSched, idle: pmcd.MachineIdle}
}

// caught names the signal that stopped pmcd and its sender, for its log.
var caught atomic.Pointer[string]

// gcPercent is pmcd's GOGC unless the environment sets one.
const gcPercent = 50

// exitError ends pmcd with a status after its messages have been printed.
type exitError int

func (e exitError) Error() string { return "exit status " + strconv.Itoa(int(e)) }

// run is pmcd with its arguments; ready, if not nil, gets the first
// listening address once clients can connect.
func run(ctx context.Context, args []string, ready chan<- net.Addr) error {
	o := &options{timeout: -1}
	// PCP's pmcd reads PMCD_PORT before its options (see envPortsBad).
	if v, ok := os.LookupEnv("PMCD_PORT"); ok {
		_, good := envPorts(v)
		o.envPortsBad = !good
	}
	cmd := command(o)
	p := getopt.Parse(cmd, append([]string{"pmcd"}, args...))
	if o.noMem {
		// libpcp's pmNoMem exits at once: no usage, no note in -x's file.
		fmt.Fprintf(os.Stderr, "[%s] pmcd(%d) Error: %s\n", logStamp(), os.Getpid(), noMemMessage())
		return exitError(1)
	}
	if len(p.Args) > 0 && p.Errors == 0 {
		p.Errors++
		o.valueErrors++
	}
	// An unknown option or a missing argument is, to PCP's pmcd, a
	// request for the usage message.
	if p.Errors > o.valueErrors {
		o.usage = true
	}
	if o.usage || p.Errors > 0 {
		fmt.Fprint(os.Stderr, p.Report(cmd))
		if o.usage {
			return exitError(0)
		}
		// As PCP's pmcd, say so in its log style, and in -x's file.
		ownfile.Notify(os.Stderr, "pmcd", "Error", "pmcd not started due to errors!")
		if o.fatalPath != "" {
			if f, err := os.OpenFile(o.fatalPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644); err == nil {
				fmt.Fprintf(f, "NOTE: pmcd not started due to errors!  Log file \"%s\" has vanished!\n", o.logPath)
				f.Close()
			}
		}
		return exitError(1)
	}
	// What libpcp says as it starts ($PCP_DEBUG not valid) goes out
	// before anything else.
	fmt.Fprint(os.Stderr, p.Direct)
	o.defaults()
	if o.verify {
		return verify(o.config)
	}
	if o.envPortsBad {
		// No ports to bind: PCP's pmcd stops here, before its log.
		fmt.Fprintf(os.Stderr, "[%s] pmcd(%d) Error: pmcd not started due to errors!\n", logStamp(), os.Getpid())
		writeFatal(o)
		return exitError(1)
	}

	// Bind first, as PCP's pmcd does: a pmcd that cannot have its port
	// (another pmcd has it) must not touch that pmcd's log or pid file,
	// so its failure goes to standard error and -x's file only.
	var early []string
	socks, err := listen(o, func(m string) { early = append(early, m) })
	if err != nil {
		startFailed(o, err)
		return exitError(1)
	}
	defer socks.close()
	logw, closeLog := openLog(o.logPath)
	defer closeLog()
	logger := log.New(pcpLine{logw}, "", 0)
	for _, w := range o.envWarnings {
		fmt.Fprintln(logw, w)
	}
	for _, m := range early {
		logger.Print(m)
	}
	err = serve(ctx, o, logger, logw, socks, ready)
	if err != nil && !errors.As(err, new(exitError)) {
		logger.Printf("Error: %v", err)
		notStarted(o, logger)
	}
	return err
}

// verify is pmcd -v: report on the configuration and exit 1 if PCP's
// pmcd -v would (pmcd.LoadConf's error). Agents this pmcd could not start
// (a DSO with no Go agent, a program that is not there) are reported
// too, each once, as warnings: PCP's -v loads nothing and so does not
// judge them, but here, where most DSOs have no Go agent, saying nothing
// would mislead.
func verify(path string) error {
	if path == "" {
		return nil // the built-in configuration
	}
	conf, err := pmcd.LoadConf(path)
	if conf != nil {
		for _, w := range slices.Concat(conf.Errors, conf.Warnings) {
			confMessage(os.Stderr, w)
		}
	}
	var ce *pmcd.ConfError
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe) && pe.Op == "open":
		fmt.Fprintf(os.Stderr, "pmcd verify %s: %s\n", path, pcp.TextOf(pe.Err))
		return exitError(1)
	case errors.As(err, &ce):
		for _, l := range ce.Lines {
			confMessage(os.Stderr, l)
		}
		return exitError(1)
	case err != nil:
		fmt.Fprintln(os.Stderr, err)
		return exitError(1)
	}
	for _, p := range pmcd.CheckAgents(conf) {
		fmt.Fprintln(os.Stderr, p)
	}
	return nil
}

// confMessage writes one of pmcd.LoadConf's messages as PCP's pmcd does:
// pmNotifyErr's (pmcd.IsNote) with the time and process, the others as
// they are.
func confMessage(w io.Writer, msg string) {
	if pmcd.IsNote(msg) {
		fmt.Fprintf(w, "[%s] pmcd(%d) %s\n", logStamp(), os.Getpid(), msg)
		return
	}
	fmt.Fprintln(w, msg)
}

// serve loads the namespace and pmcd.conf and serves on listeners until
// ctx ends, reconfiguring on SIGHUP.
func serve(ctx context.Context, o *options, logger *log.Logger, logw io.Writer, socks *sockets, ready chan<- net.Addr) error {
	listeners := socks.ls
	files := &pmcd.Files{ConfPath: o.config, PMNSPath: o.nsPath}
	loadNS := func(path string) (*pmns.Tree, error) {
		return pmns.LoadWith(path, pmns.Options{NoDuplicates: o.uniqNames})
	}
	var conf *pmcd.Conf
	var err error
	if o.config == "" {
		conf = pmcd.DefaultConf()
		logger.Printf("Info: no -c: built-in configuration, in-process agents pmcd, proc, linux, sample and mmv; stores from local clients only")
	} else if conf, err = pmcd.LoadConf(o.config); err != nil {
		if ce := (*pmcd.ConfError)(nil); errors.As(err, &ce) {
			// PCP's pmcd logs the configuration's complaints as they
			// come and says no more of them.
			for _, l := range ce.Lines {
				confMessage(logw, l)
			}
			notStarted(o, logger)
			return exitError(1)
		}
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) && pe.Op == "open" {
			fmt.Fprintf(logw, "ParseInitAgents: open %s: %s\n", o.config, pcp.TextOf(pe.Err))
			notStarted(o, logger)
			return exitError(1)
		}
		return err
	}
	if o.config != "" && len(conf.Agents) == 0 {
		fmt.Fprintf(logw, "Error: No PMDAs found in the configuration file \"%s\"\n", o.config)
		notStarted(o, logger)
		return exitError(1)
	}
	var tree *pmns.Tree
	switch {
	case o.nsPath != "":
		files.LoadPMNS = loadNS
		tree, err = loadNS(o.nsPath)
	case o.config == "":
		// The built-in agents bring their own names, so that pmcd
		// needs no namespace files either.
		files.PMNSPath = ""
		tree, err = pmcd.AgentNamespace(ctx, conf, map[string]pmcd.NameSource{"sample_init": sample.Namespace, "mmv_init": mmv.Namespace(mmv.Prefix)})
	default:
		files.PMNSPath = pmns.DefaultPath(os.Getenv("PMNS_DEFAULT"))
		files.PMNSName = "DEFAULT"
		files.LoadPMNS = func(string) (*pmns.Tree, error) { return pmns.LoadDefault(os.Getenv("PMNS_DEFAULT")) }
		tree, err = pmns.LoadDefault(os.Getenv("PMNS_DEFAULT"))
	}
	if err != nil {
		var pe *pmns.ParseError
		if o.nsPath == "" || !errors.As(err, &pe) {
			return fmt.Errorf("cannot load namespace: %w", err)
		}
		// libpcp's own lines, then pmcd's, bare in the log as PCP's.
		fmt.Fprint(logw, pe.Report())
		dupOK := 1 // -N loads with duplicate names refused
		if o.uniqNames {
			dupOK = 0
		}
		fmt.Fprintf(logw, "Error: pmLoadASCIINameSpace(%s, %d): %s\n", o.nsPath, dupOK, pcp.TextOf(err))
		notStarted(o, logger)
		return exitError(1)
	}
	// PCP writes the errors of agent lines it skipped bare to its log.
	for _, e := range conf.Errors {
		fmt.Fprintln(logw, e)
	}
	for _, w := range conf.Warnings {
		confMessage(logw, w)
	}
	files.Remember()

	agentDir := confVar("PCP_LOG_DIR", "/var/log/pcp") + "/pmcd"
	if st, err := os.Stat(agentDir); err != nil || !st.IsDir() {
		agentDir = ""
	}
	srv := &pmcd.Server{
		PMNS:         tree,
		MaxPDU:       o.pduLimit,
		Conf:         conf,
		Log:          logger,
		AgentStderr:  logw,
		Stderr:       logw,
		AgentDir:     agentDir,
		RequireCreds: o.reqAuth,
		Hostname:     o.hostname,
		TZ:           os.Getenv("TZ"),
		Files:        files,
		Local:        o.local,
		Trace:        int32(o.trace),
		// As with PCP, dead agents are restarted unless
		// PMCD_RESTART_AGENTS is 0.
		AutoRestart: os.Getenv("PMCD_RESTART_AGENTS") != "0",
		// A daemon idles between bursts of clients: what they left
		// is handed back.
		FreeIdleMemory: true,
		MaxProcs:       procs.max,
		ProcsLimit:     procs.limit,
		ProcsSched:     procs.sched,
		ProcsIdle:      procs.idle,
	}
	if o.timeout >= 0 {
		srv.AgentTimeout = time.Duration(o.timeout) * time.Second
		if o.timeout == 0 {
			// PCP's -t 0 waits for agents forever.
			srv.AgentTimeout = 24 * 365 * time.Hour
		}
	}
	if o.credsWait > 0 {
		srv.StartTimeout = time.Duration(o.credsWait)*time.Second + startGrace
	}
	defer srv.Close()

	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				srv.Rescan(ctx, files)
			}
		}
	}()
	if !o.foreground {
		// Without -f PCP's pmcd records its pid for the rc scripts and
		// for agents' Install and Remove scripts, which signal it.
		release := takePIDFile(filepath.Join(confVar("PCP_RUN_DIR", "/run/pcp"), "pmcd.pid"), func(m string) { logger.Print(m) })
		defer release()
	}
	// The agents start before the first client; each that cannot is
	// logged once and the others serve, as with PCP's pmcd.
	srv.Start(ctx)
	// As PCP's, the port table is the last thing logged at start.
	fmt.Fprint(logw, startTables(srv, conf, socks))
	if ready != nil {
		ready <- listeners[0].Addr()
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(listeners))
	for _, l := range listeners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := srv.Serve(ctx, l); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	if name := caught.Load(); name != nil {
		logger.Printf("Info: pmcd caught %s", *name)
	}
	// The agents' cleanup lines come before the last one, as in PCP's
	// log.
	srv.Close()
	logger.Printf("Info: pmcd Shutdown")
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

// startGrace is what an agent has to start before -q's handshake wait
// begins.
const startGrace = 2 * time.Second
