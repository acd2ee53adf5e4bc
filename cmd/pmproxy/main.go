// Command pmproxy is PCP's pmproxy: the REST API grafana-pcp and other web
// clients use (/pmapi/*), OpenMetrics at /metrics, and the PCP protocol
// proxy, all on each of its ports (44322 and 44323 unless -p or
// PMPROXY_PORT say otherwise), in front of pmcd. docs/pmproxy.md has the
// rest.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/series/restapi"

	"github.com/gopcp/gopcp/internal/getopt"
	"github.com/gopcp/gopcp/internal/identity"
	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/internal/pmapienv"
	"github.com/gopcp/gopcp/internal/sdnotify"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmproxy"
	"github.com/gopcp/gopcp/pmproxy/web"
	"github.com/gopcp/gopcp/webapi"
)

// heapMargin is the least the heap may grow past its live bytes between
// collections, and heapWindow the time whose allocation it may always
// grow by (pmproxy.FollowLiveHeap). A window of 100 ms with a 512 KiB
// margin let a burst of requests (1,000 concurrent fetches allocate
// 2-3 MB in half a second) grow the heap to the runtime's 2 MiB floor,
// and those pages were resident when the burst ended: 0.3-1 MiB above
// PCP's pmproxy right after it. With no window and 256 KiB a burst is
// collected every hundred fetches or so, at some 10 µs of CPU a fetch
// while requests come that fast (bench's TestPMProxyBurst and the timing
// of TestPMProxySideBySide, docs/pmproxy.md); a heap with more live
// (many contexts) grows by GOGC's half of it as before.
const (
	heapMargin = 256 << 10
	heapWindow = 0
)

func main() {
	if os.Getenv("GOGC") == "" {
		// What pmproxy allocates dies with its request or its context:
		// collecting at half the default growth keeps its resident
		// memory close to its live heap under churn.
		debug.SetGCPercent(50)
	}
	ctx, stop := notifyContext()
	err := run(ctx, os.Args[1:], nil)
	stop()
	var ex exitError
	switch {
	case errors.As(err, &ex):
		os.Exit(int(ex))
	case err != nil:
		fmt.Fprintf(os.Stderr, "pmproxy: %v\n", err)
		os.Exit(1)
	}
}

type exitError int

// caughtSignal is the cause of run's context ending on SIGTERM or
// SIGINT, which PCP's pmproxy logs ("pmproxy caught SIGTERM").
type caughtSignal struct{ sig os.Signal }

func (c caughtSignal) Error() string {
	if c.sig == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}

// notifyContext is a context cancelled, with the signal as its cause,
// on SIGTERM or SIGINT; stop releases the signals and ends its goroutine.
func notifyContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			cancel(caughtSignal{sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		select {
		case <-done:
		default:
			close(done)
		}
		cancel(nil)
	}
}

func (e exitError) Error() string { return "exit status " + strconv.Itoa(int(e)) }

// run is pmproxy with its arguments; ready, if not nil, gets the first
// listening address once clients can connect.
func run(ctx context.Context, args []string, ready chan<- net.Addr) error {
	o := &options{}
	o.envPorts()
	cmd := command(o)
	p := getopt.Parse(cmd, append([]string{"pmproxy"}, args...))
	if o.noMem {
		// PCP's pmproxy ends at that -p, on libpcp's allocation of a
		// list of -EINVAL+1 ports, the size taken as unsigned
		size := int64(-22+1) * 4
		stderrLog().Printf("Error: __pmAddPorts: cannot grow port list: malloc(%d) failed: %s", uint64(size), "Cannot allocate memory")
		return exitError(1)
	}
	if len(p.Args) > 0 && p.Errors == 0 {
		p.Errors++
		o.valueErrors++
	}
	if p.Errors > o.valueErrors {
		o.usage = true
	}
	if o.usage || p.Errors > 0 {
		fmt.Fprint(os.Stderr, p.Report(cmd))
		if o.usage {
			return exitError(0)
		}
		notStarted(o)
		return exitError(1)
	}
	// What libpcp says as it starts ($PCP_DEBUG not valid) goes out
	// before anything else, once: from the parent of a daemon.
	if isDaemonChild() {
		o.daemonChild = true
	} else {
		fmt.Fprint(os.Stderr, p.Direct)
	}
	if !o.foreground && !o.daemonChild && ready == nil { // in-process callers (tests) stay
		// PCP's pmproxy forks here, its log already opened; the
		// child opens ours
		if err := daemonize(); err != nil {
			stderrLog().Printf("Error: __pmServerStart: fork")
		} else {
			return nil
		}
	}
	portErr := o.defaults()
	if portErr {
		// As PCP's: the log opened, the note in it, exit 1.
		w, closeLog := openLog(o.logPath)
		log.New(&stampWriter{w: w}, "", 0).Printf("Error: pmproxy not started due to errors!")
		closeLog()
		return exitError(1)
	}
	conf := o.readConf()

	// Bind before touching any file, so that a pmproxy that cannot have
	// its ports leaves another's log alone.
	lns, rows, bindWarns, bindErrs := pmproxy.Listen(o.socket, o.ports, o.ifaces, keepAlive(conf))
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	logw, closeLog := openLog(o.logPath)
	if f, ok := logw.(*os.File); ok && f != os.Stderr && ready == nil {
		// As libpcp's pmOpenLog: standard output and error are the
		// log from here on (what the runtime says, a panic, goes
		// there too); not for in-process callers, whose they are.
		syscall.Dup3(int(f.Fd()), 1, 0)
		syscall.Dup3(int(f.Fd()), 2, 0)
	}
	defer closeLog()
	logger := log.New(&stampWriter{w: logw}, "", 0)
	for _, w := range bindWarns {
		logger.Printf("Warning: pmproxy: %s", w)
	}

	// pmproxy's own metrics, served as pmproxy.* by pmcd's pmproxy agent
	// from PCP_TMP_DIR/pmproxy, as PCP's pmproxy writes them; without
	// that directory (or with another pmproxy writing there) it runs
	// without them, as PCP's does.
	stats, err := pmproxy.StartStats(o.statsDir)
	var onSweep func(int, int)
	if err != nil {
		// PCP's words for the same (its instrumentation is off)
		logger.Printf("Error: pmWebTimerSetMetricRegistry: server instrumentation disabled")
	} else {
		onSweep = stats.Sweep
		sctx, scancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { stats.Run(sctx, time.Second); close(done) }()
		defer func() { scancel(); <-done; stats.Close() }()
	}
	for _, e := range bindErrs {
		logger.Printf("Error: pmproxy: %s", e)
	}
	if len(lns) == 0 {
		logger.Printf("Error: pmproxy: can't open any request ports, exiting")
		logger.Printf("Error: pmproxy not started due to errors!")
		return exitError(1)
	}

	// As PCP's pmproxy: a daemon (no -f; -F too) runs as the service's
	// user from here on, the ports bound and the log and statistics
	// files opened as whoever started it; an unknown user or a refused
	// switch (not started as root) ends it with libpcp's message.
	// Before the switch, as PCP's: the service manager hears it is
	// ready (systemd's Type=notify, pmproxy.service's -F) and the pid
	// file is written as root, unless another live process's.
	user := serviceUser(o.username, o.userGiven)
	finished := false // by -T
	if !o.foreground || o.managed {
		notify := os.Getenv("NOTIFY_SOCKET")
		sdnotify.Notify(notify, "READY=1\nMAINPID="+strconv.Itoa(os.Getpid()))
		defer func() {
			if !finished {
				sdnotify.Notify(notify, "STOPPING=1")
			}
		}()
		defer takePIDFile(o.pidPath, logger)()
		if !identity.Set(user, logw, "pmproxy") {
			return exitError(1)
		}
	}
	// PCP's pmproxy makes its webgroup file after the switch (its
	// server file before), so a daemon's is the service user's.
	if stats != nil {
		if err := stats.StartWebgroup(); err != nil {
			logger.Printf("Error: pmproxy: no webgroup statistics in %s: %v", o.statsDir, err)
		}
	}
	// As PCP's: the environment's say on ports and interfaces noted
	if v, ok := os.LookupEnv("PMPROXY_PORT"); ok {
		fmt.Fprintf(logw, "Warning: nports=%d from PMPROXY_PORT=%s in environment\n", o.portCount, v)
	}
	if o.local {
		fmt.Fprintf(logw, "Warning: localhost only from PMPROXY_LOCAL=%s in environment\n", os.Getenv("PMPROXY_LOCAL"))
	}
	if v, ok := os.LookupEnv("PMPROXY_MAXPENDING"); ok {
		// said as PCP's says it, pmproxy.conf's [pmproxy] maxpending
		// winning; the listen backlog itself is the system's here
		n, _, _ := getopt.CStrtol(v, 10) // C's atoi
		pending := int32(n)
		if c, ok := conf["pmproxy.maxpending"]; ok {
			m, _, _ := getopt.CStrtol(c, 10)
			pending = int32(m)
		}
		fmt.Fprintf(logw, "Warning: maxpending=%d from PMPROXY_MAXPENDING=%s in environment\n", pending, v)
	}
	fmt.Fprintf(logw, "pmproxy: PID = %d, PDU version = 2, user = %s (%d)\n", os.Getpid(), user, os.Getuid())
	pmproxy.WritePortTable(logw, rows)
	// TLS, as PCP's sets it up once it serves: its files read as the
	// service's user, a misconfiguration the end of pmproxy
	relay, err := startTLS(conf, logger)
	if err != nil {
		return err
	}
	if relay != nil {
		defer relay.Close()
	}

	// a daemon never asks for credentials on a console: libpcp would
	// (PCP_CONSOLE, /dev/tty), leaving a request's goroutine and its
	// context slot waiting on a read nobody answers, and emptying a
	// PCP_CONSOLE that names a file
	hostOpts := append(pmapienv.HostEnv(), pmapi.WithConsole("none"))
	api := webapi.New(webapi.Options{
		OnSweep: onSweep,
		Open: func(ctx context.Context, spec string) (pmapi.Source, error) {
			warnTimeouts.connect.Do(func() { warnTimeout(logger, "PMCD_CONNECT_TIMEOUT", pmapi.ConnectTimeoutWarning) })
			src, err := pmapi.NewContext(ctx, pmapi.KindHost, spec, hostOpts...)
			if err == nil {
				warnTimeouts.request.Do(func() { warnTimeout(logger, "PMCD_REQUEST_TIMEOUT", pdu.RequestTimeoutWarning) })
			}
			return src, err
		},
		MaxContexts:       confInt(conf, "pmwebapi.maxcontexts"),
		MaxClientContexts: confInt(conf, "pmwebapi.maxclientcontexts"),
	})
	defer api.Close()
	// Both servers always, as PCP 6.0.3's pmproxy: it never reads the
	// [pmproxy] pcp.enabled and http.enabled its pmproxy.conf carries.
	mux := pmproxy.NewMux(api)
	mux.Handle("/", web.Handler())
	st := pmproxy.SeriesStore(ctx, conf, logger)
	mux.Handle("/series/", restapi.NewHandler(st, restapi.HandlerOptions{Load: pmproxy.LoadOptions(conf, logger)}))
	mux.Handle("/search/", restapi.SearchHandler(st))
	cfg := pmproxy.Config{
		HTTP:           mux,
		Others:         web.Has,
		PCP:            true,
		MaxConns:       confInt(conf, "pmproxy.maxconns"),
		MaxHeaderBytes: confInt(conf, "pmproxy.maxheaderbytes"),
		ChunkSize:      chunkSize(conf),
		TLS:            relay,
		Log:            logger,
	}
	var trace func(string, ...any)
	if o.traceDisc {
		trace = func(format string, args ...any) { fmt.Fprintf(logw, format+"\n", args...) }
	}
	if stop := pmproxy.Discover(ctx, conf, o.archiveDir, logger, trace); stop != nil {
		defer stop()
	}
	if o.finish > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.finish)
		defer cancel()
	}
	// What contexts and requests freed goes back to the system every
	// 5 s while they come and go, not at the runtime's slower pace.
	fctx, fcancel := context.WithCancel(ctx)
	fdone := make(chan struct{})
	go func() { pmproxy.ReturnFreedMemory(fctx, 5*time.Second); close(fdone) }()
	defer func() { fcancel(); <-fdone }()
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		// The heap's goal follows the live heap rather than resting
		// at the runtime's 2 MiB minimum; an operator's GOGC or
		// GOMEMLIMIT is left to rule.
		ldone := make(chan struct{})
		go func() { pmproxy.FollowLiveHeap(fctx, 50, heapMargin, heapWindow, nil); close(ldone) }()
		defer func() { fcancel(); <-ldone }()
	}
	if ready != nil {
		ready <- lns[0].Addr()
	}
	err = pmproxy.Serve(ctx, cfg, lns...)
	if o.finish > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		// PCP's pmproxy ends at -T's time by exit(0), its ports
		// closed: no Shutdown line, no STOPPING for the service
		// manager
		finished = true
		return err
	}
	var sig caughtSignal
	if errors.As(context.Cause(ctx), &sig) {
		logger.Printf("Info: pmproxy caught %v", sig)
	}
	logger.Printf("Info: pmproxy Shutdown")
	return err
}

// warnTimeouts keeps libpcp's warnings about the timeout variables to
// one each a process: libpcp reads PMCD_CONNECT_TIMEOUT when it first
// connects to a pmcd, PMCD_REQUEST_TIMEOUT when it first waits for one's
// answer (so not while no pmcd could be reached), and keeps the values.
var warnTimeouts struct{ connect, request sync.Once }

// warnTimeout logs, as libpcp's pmNotifyErr warning, the text warning
// gives for the environment variable name, if it is set and warned of.
func warnTimeout(logger *log.Logger, name string, warning func(string) string) {
	if v, ok := os.LookupEnv(name); ok {
		if text := warning(v); text != "" {
			logger.Printf("Warning: %s", text)
		}
	}
}

// notStarted says, as PCP's pmproxy does when its options are wrong, that
// it did not start: in its log's style on stderr, and with the log's
// text (its -l file, else pmproxy.log here) in -x's file when given.
func notStarted(o *options) {
	stderrLog().Printf("Error: pmproxy not started due to errors!")
	if o.fatalPath == "" {
		return
	}
	f, err := os.OpenFile(o.fatalPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	logPath := o.logPath
	if logPath == "" {
		logPath = "pmproxy.log"
	}
	fmt.Fprint(f, "NOTE: pmproxy not started due to errors!  ")
	data, err := os.ReadFile(logPath)
	if err != nil {
		fmt.Fprintf(f, "Log file \"%s\" has vanished!\n", logPath)
		return
	}
	fmt.Fprintf(f, "Log file \"%s\" contains ...\n%s", logPath, data)
}

// takePIDFile writes pmproxy's pid to path, as PCP's pmproxy does in
// daemon and systemd modes, unless the file names another live process
// (a system pmproxy beside this one): then it is left alone and this
// pmproxy has none. The returned function removes the file only while it
// is still this pmproxy's.
func takePIDFile(path string, logger *log.Logger) func() {
	p, err := ownfile.TakePID(path, os.Getpid())
	if err != nil {
		logger.Printf("Warning: pmproxy: no pid file: %v", err)
		return func() {}
	}
	return func() {
		if err := p.Release(); err != nil {
			logger.Printf("Warning: pmproxy: pid file: %v", err)
		}
	}
}

// keepAlive is [pmproxy] keepalive as PCP's pmproxy reads it: C's atoi
// of the text, 45 when unset.
func keepAlive(conf pmproxy.Conf) int {
	v, ok := conf["pmproxy.keepalive"]
	if !ok {
		return 45
	}
	return getopt.CAtoi(v)
}

// chunkSize is [pmproxy] chunksize as PCP's pmproxy reads it: C's atoi
// of the text, the page size when unset, at least 128 (and here at most
// httpd.MaxChunkSize).
func chunkSize(conf pmproxy.Conf) int {
	n := os.Getpagesize()
	if v, ok := conf["pmproxy.chunksize"]; ok {
		n = getopt.CAtoi(v)
	}
	return max(n, 128)
}

func confInt(c pmproxy.Conf, key string) int {
	n, _ := strconv.Atoi(c[key])
	return n
}
