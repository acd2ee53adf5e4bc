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
	"runtime/debug"
	"strconv"
	"sync"
	"syscall"
	"time"

	// The Go agents this pmcd runs in-process, found by the entry
	// points pmcd.conf "dso" lines name.
	_ "github.com/gopcp/gopcp/agents/all"
	"github.com/gopcp/gopcp/agents/sample"
	"github.com/gopcp/gopcp/internal/cli"
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], nil)
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

// gcPercent is pmcd's GOGC unless the environment sets one.
const gcPercent = 50

// exitError ends pmcd with a status after its messages have been printed.
type exitError int

func (e exitError) Error() string { return "exit status " + strconv.Itoa(int(e)) }

// run is pmcd with its arguments; ready, if not nil, gets the first
// listening address once clients can connect.
func run(ctx context.Context, args []string, ready chan<- net.Addr) error {
	o := &options{timeout: -1}
	cmd := command(o)
	p := cli.Parse(cmd, append([]string{"pmcd"}, args...))
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
		fmt.Fprintf(os.Stderr, "[%s] pmcd(%d) Error: pmcd not started due to errors!\n",
			time.Now().Format("Mon Jan _2 15:04:05"), os.Getpid())
		if o.fatalPath != "" {
			if f, err := os.OpenFile(o.fatalPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644); err == nil {
				fmt.Fprintf(f, "NOTE: pmcd not started due to errors!  Log file \"%s\" has vanished!\n", o.logPath)
				f.Close()
			}
		}
		return exitError(1)
	}
	o.defaults()
	if o.verify {
		return verify(o.config)
	}

	logw, closeLog := openLog(o.logPath)
	defer closeLog()
	logger := log.New(logw, fmt.Sprintf("pmcd(%d) ", os.Getpid()), log.LstdFlags)
	err := serve(ctx, o, logger, logw, ready)
	if err != nil && !errors.As(err, new(exitError)) {
		logger.Printf("Error: %v", err)
		notStarted(o, logger)
	}
	return err
}

// verify is pmcd -v: report on the configuration and exit 1 if it has
// errors.
func verify(path string) error {
	if path == "" {
		return nil // the built-in configuration
	}
	conf, err := pmcd.LoadConf(path)
	if conf != nil {
		for _, w := range conf.Warnings {
			fmt.Fprintln(os.Stderr, w)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return exitError(1)
	}
	return nil
}

// openLog opens pmcd's log, as PCP's pmcd does with a header naming the
// host and time; standard error serves when it cannot be created.
func openLog(path string) (io.Writer, func()) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pmcd: cannot open log %s: %v; logging to standard error\n", path, err)
		return os.Stderr, func() {}
	}
	host, _ := os.Hostname()
	fmt.Fprintf(f, "Log for pmcd on %s started %s\n\n", host, time.Now().Format("Mon Jan _2 15:04:05 2006"))
	return f, func() {
		fmt.Fprintf(f, "\nLog finished %s\n", time.Now().Format("Mon Jan _2 15:04:05 2006"))
		f.Close()
	}
}

// notStarted writes PCP's note of a failed start, with the log, to -x's
// file.
func notStarted(o *options, logger *log.Logger) {
	logger.Printf("pmcd not started due to errors!")
	f, err := os.OpenFile(o.fatalPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprint(f, "NOTE: pmcd not started due to errors!  ")
	data, err := os.ReadFile(o.logPath)
	if err != nil {
		fmt.Fprintf(f, "Log file \"%s\" has vanished!\n", o.logPath)
		return
	}
	fmt.Fprintf(f, "Log file \"%s\" contains ...\n%s", o.logPath, data)
}

// serve loads the namespace and pmcd.conf, listens, and serves until ctx
// ends, reconfiguring on SIGHUP.
func serve(ctx context.Context, o *options, logger *log.Logger, logw io.Writer, ready chan<- net.Addr) error {
	files := &pmcd.Files{ConfPath: o.config, PMNSPath: o.nsPath}
	loadNS := func(path string) (*pmns.Tree, error) {
		return pmns.LoadWith(path, pmns.Options{NoDuplicates: o.uniqNames})
	}
	var conf *pmcd.Conf
	var err error
	if o.config == "" {
		conf = pmcd.DefaultConf()
		logger.Printf("Info: no -c: built-in configuration, in-process agents pmcd, linux and sample")
	} else if conf, err = pmcd.LoadConf(o.config); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return fmt.Errorf("%s: %w", o.config, err)
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
		tree, err = pmcd.AgentNamespace(ctx, conf, map[string]pmcd.NameSource{"sample_init": sample.Namespace})
	default:
		files.PMNSPath = pmns.DefaultPath()
		files.LoadPMNS = func(string) (*pmns.Tree, error) { return pmns.LoadDefault() }
		tree, err = pmns.LoadDefault()
	}
	if err != nil {
		return fmt.Errorf("cannot load namespace: %w", err)
	}
	for _, w := range conf.Warnings {
		logger.Print(w)
	}
	files.Remember()

	listeners, err := listen(o, logger)
	if err != nil {
		return err
	}
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
		AgentDir:     agentDir,
		RequireCreds: o.reqAuth,
		Hostname:     o.hostname,
		Files:        files,
		Local:        o.local,
		Trace:        int32(o.trace),
		// As with PCP, dead agents are restarted unless
		// PMCD_RESTART_AGENTS is 0.
		AutoRestart: os.Getenv("PMCD_RESTART_AGENTS") != "0",
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
				logger.Printf("Info: SIGHUP received: reconfiguring")
				srv.Rescan(ctx, files)
			}
		}
	}()
	if !o.foreground {
		// Without -f PCP's pmcd records its pid for the rc scripts and
		// for agents' Install and Remove scripts, which signal it.
		pidFile := filepath.Join(confVar("PCP_RUN_DIR", "/run/pcp"), "pmcd.pid")
		if err := os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
			logger.Printf("Warning: cannot write %s: %v", pidFile, err)
		} else {
			defer os.Remove(pidFile)
		}
	}
	srv.RestartDead(ctx) // starts the agents before the first client
	logger.Printf("Info: serving %d names and %d agents on %d sockets", tree.Len(), len(conf.Agents), len(listeners))
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
	for _, l := range listeners {
		if ul, ok := l.(*net.UnixListener); ok {
			os.Remove(ul.Addr().String())
		}
	}
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

// listen opens the TCP sockets of -i and -p and the Unix socket of -s.
// A Unix socket another live pmcd answers on is left to it.
func listen(o *options, logger *log.Logger) ([]net.Listener, error) {
	var out []net.Listener
	ifaces := o.ifaces
	if len(ifaces) == 0 {
		ifaces = []string{""}
	}
	for _, iface := range ifaces {
		for _, port := range o.ports {
			l, err := net.Listen("tcp", net.JoinHostPort(iface, strconv.Itoa(port)))
			if err != nil && o.local && iface == "::1" {
				// A host without IPv6 serves local clients on 127.0.0.1.
				logger.Printf("Warning: no IPv6 loopback: %v", err)
				continue
			}
			if err != nil {
				for _, o := range out {
					o.Close()
				}
				return nil, fmt.Errorf("cannot listen: %w", err)
			}
			out = append(out, l)
		}
	}
	if o.socket != "" {
		l, err := listenUnix(o.socket)
		if err != nil {
			logger.Printf("Warning: no Unix socket: %v", err)
		} else {
			out = append(out, l)
		}
	}
	return out, nil
}

// listenUnix binds the Unix socket for local: clients, removing a stale
// file first but never one a running pmcd answers on; the socket is open
// to every user, whose credentials access control then judges.
func listenUnix(path string) (net.Listener, error) {
	if _, err := os.Lstat(path); err == nil {
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, fmt.Errorf("%s is in use by another pmcd", path)
		}
		os.Remove(path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	if err := os.Chmod(path, 0o777); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}
