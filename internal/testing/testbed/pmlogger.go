package testbed

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// LoggerOptions configures a pmlogger recording from a bed's pmcd.
type LoggerOptions struct {
	// Config is pmlogger's configuration text. Empty means
	// DefaultLoggerConfig.
	Config string
	// Name is the archive's base name inside the bed; empty means
	// "archive". Beds may run several loggers with different names.
	Name string
	// Args are extra pmlogger arguments (e.g. "-s", "10" to stop after
	// ten samples).
	Args []string
	// StartTimeout bounds the wait for the control port; zero means 30s.
	StartTimeout time.Duration

	// beforeStart, when set, is called with each attempt's reserved
	// control port before pmlogger starts: for tests.
	beforeStart func(port int)
}

// DefaultLoggerConfig records pmcd's own metrics, which every bed serves.
const DefaultLoggerConfig = "log mandatory on 100 msec { pmcd.numclients pmcd.version }\n"

// Logger is a running pmlogger.
type Logger struct {
	// Archive is the archive base name (without .0, .meta or .index).
	Archive string
	// Port is pmlogger's control port, for pmlc -p.
	Port int
	// LogPath is pmlogger's own log file.
	LogPath string

	proc      *proc
	portBase  int
	restarts  []error // why earlier attempts were started again
	closeOnce sync.Once
	closeErr  error
}

// StartLogger starts PCP's pmlogger against this pmcd for the test and
// stops it (before pmcd) when the test ends.
func (p *PMCD) StartLogger(t testing.TB, opts LoggerOptions) *Logger {
	t.Helper()
	l, err := p.NewLogger(opts)
	if errors.Is(err, ErrNotInstalled) {
		missing(t, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range l.restarts {
		t.Logf("testbed: pmlogger started again: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			if data, err := os.ReadFile(l.LogPath); err == nil {
				t.Logf("testbed: pmlogger log:\n%s", data)
			}
		}
		if err := l.Close(); err != nil {
			t.Errorf("testbed: stopping pmlogger: %v", err)
		}
	})
	return l
}

// NewLogger starts pmlogger against this pmcd; the caller must Close it.
// pmlogger takes its control port from PMLOGGER_PORT upwards and writes
// its port map into the bed's private PCP_TMP_DIR, which is where the
// actual port is read from.
func (p *PMCD) NewLogger(opts LoggerOptions) (*Logger, error) {
	path, err := p.in.Tool("pmlogger")
	if err != nil {
		return nil, err
	}
	name := opts.Name
	if name == "" {
		name = "archive"
	}
	if filepath.Base(name) != name {
		return nil, fmt.Errorf("testbed: logger name %q must be a plain file name", name)
	}
	config := opts.Config
	if config == "" {
		config = DefaultLoggerConfig
	}
	cfgPath := filepath.Join(p.dir, name+".config")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		return nil, err
	}
	// A pmlogger whose IPv4 control socket slipped to another port than
	// the one it announces (see splitPort) is started again afresh; what
	// went wrong is kept for StartLogger to report.
	var restarts []error
	for attempt := 1; ; attempt++ {
		l, err := p.startLogger(path, cfgPath, name, opts)
		if !errors.Is(err, errSplitPort) || attempt == 3 {
			if err != nil {
				return nil, errors.Join(append(restarts, err)...)
			}
			l.restarts = restarts
			return l, nil
		}
		restarts = append(restarts, err)
	}
}

// errSplitPort: pmlogger's IPv4 control socket is not on the port its
// port map gives.
var errSplitPort = errors.New("testbed: pmlogger's IPv4 control socket is not on its announced port")

// startLogger runs one pmlogger on a newly reserved control port.
func (p *PMCD) startLogger(path, cfgPath, name string, opts LoggerOptions) (*Logger, error) {
	base, err := reservePort()
	if err != nil {
		return nil, err
	}
	l := &Logger{
		Archive:  filepath.Join(p.dir, name),
		LogPath:  filepath.Join(p.dir, "log", name+".pmlogger.log"),
		portBase: base,
	}
	if opts.beforeStart != nil {
		opts.beforeStart(base)
	}
	args := []string{"-h", p.Host(), "-c", cfgPath, "-l", l.LogPath}
	args = append(args, opts.Args...)
	args = append(args, l.Archive)
	cmd, err := p.Command(context.Background(), path, args...)
	if err != nil {
		releasePort(base)
		return nil, err
	}
	cmd.Env = append(cmd.Env, "PMLOGGER_PORT="+strconv.Itoa(base))
	if l.proc, err = startProc(cmd); err != nil {
		releasePort(base)
		return nil, fmt.Errorf("testbed: starting pmlogger: %w", err)
	}
	timeout := opts.StartTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	if l.Port, err = l.waitPort(filepath.Join(p.dir, "tmp", "pmlogger", strconv.Itoa(l.proc.pid())), timeout); err != nil {
		l.Close()
		data, _ := os.ReadFile(l.LogPath)
		return nil, fmt.Errorf("%w\n%s", err, data)
	}
	if split, err := splitPort(l.proc.pid(), l.Port); err == nil && split {
		l.Close()
		// Nothing of this attempt may stay for the next to trip over
		// (pmlogger refuses to write over an existing archive), but its
		// log is kept aside: pmlogger recreates the file it is given.
		for _, suffix := range []string{".0", ".meta", ".index"} {
			os.Remove(l.Archive + suffix)
		}
		os.Rename(l.LogPath, l.LogPath+".prev")
		return nil, fmt.Errorf("%w (port %d; its log is %s.prev)", errSplitPort, l.Port, l.LogPath)
	}
	return l, nil
}

// waitPort waits for pmlogger's port map file to be complete: the port,
// the pmcd host and the archive path, one per line. pmlogger writes it
// only after its control sockets are listening.
func (l *Logger) waitPort(mapFile string, timeout time.Duration) (int, error) {
	deadline := time.Now().Add(timeout)
	for {
		if l.proc.exited() {
			return 0, fmt.Errorf("testbed: pmlogger exited during start-up: %v", l.proc.err)
		}
		if data, err := os.ReadFile(mapFile); err == nil && bytes.Count(data, []byte("\n")) >= 3 {
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Scan()
			port, err := strconv.Atoi(sc.Text())
			if err != nil {
				return 0, fmt.Errorf("testbed: pmlogger port map %s: %v", mapFile, err)
			}
			return port, nil
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("testbed: pmlogger wrote no port map %s within %v", mapFile, timeout)
		}
		time.Sleep(pollInterval)
	}
}

// PID is pmlogger's process id.
func (l *Logger) PID() int { return l.proc.pid() }

// Exited reports whether pmlogger has ended on its own (for example
// after -s samples).
func (l *Logger) Exited() bool { return l.proc.exited() }

// Wait waits up to timeout for pmlogger to end on its own.
func (l *Logger) Wait(timeout time.Duration) error {
	select {
	case <-l.proc.done:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("testbed: pmlogger still running after %v", timeout)
	}
}

// Close stops pmlogger, letting it finish the archive. It is safe to call
// more than once.
func (l *Logger) Close() error {
	l.closeOnce.Do(func() {
		l.closeErr = l.proc.stop(10 * time.Second)
		releasePort(l.portBase)
	})
	return l.closeErr
}
