package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/pcp"
)

// logStamp is the time in the prefix of PCP's daemon messages.
func logStamp() string { return ownfile.Stamp() }

// openLog starts pmcd's log as PCP's pmcd does, with a header naming the
// host and time, after moving the previous log aside to .prev. Standard
// error serves when the log cannot be made (with PCP's complaint and the
// log's header), or belongs to another live process (PCP's pmcd beside
// this one), whose log is left alone.
func openLog(path string) (w io.Writer, closeLog func()) {
	f, err := ownfile.OpenLog(path)
	switch {
	case errors.Is(err, ownfile.ErrInUse):
		// Another pmcd's log (PCP's would take it over): ours says so
		// and logs to standard error, without the log's header.
		fmt.Fprintf(os.Stderr, "[%s] pmcd(%d) Warning: cannot start log %s: %v; logging to standard error\n",
			logStamp(), os.Getpid(), path, err)
		return os.Stderr, func() {}
	case err != nil:
		// As libpcp's __pmOpenLog: the complaint, then the log, header
		// and footer included, on standard error.
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		fmt.Fprintf(os.Stderr, "pmcd: cannot open log \"%s\" for writing : %s\n", path, pcp.TextOf(err))
		f = os.Stderr
	}
	ownfile.WriteLogHeader(f, "pmcd")
	return f, func() {
		ownfile.WriteLogFooter(f)
		if f != os.Stderr {
			f.Close()
		}
	}
}

// startFailed reports a start that failed before the log was opened, as
// PCP's pmcd does: on standard error, and in -x's file the note with
// whatever the log file holds (not this pmcd's: it was never opened).
func startFailed(o *options, err error) {
	fmt.Fprintf(os.Stderr, "[%s] pmcd(%d) Error: %v\n", logStamp(), os.Getpid(), err)
	fmt.Fprintf(os.Stderr, "[%s] pmcd(%d) Error: pmcd not started due to errors!\n", logStamp(), os.Getpid())
	writeFatal(o)
}

// notStarted writes PCP's note of a failed start to the log and, with
// the log, to -x's file.
func notStarted(o *options, logger interface{ Printf(string, ...any) }) {
	logger.Printf("Error: pmcd not started due to errors!")
	writeFatal(o)
}

// writeFatal writes PCP's note of a failed start, with the log's text, to
// -x's file (by default the terminal).
func writeFatal(o *options) {
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

// takePIDFile writes pmcd's pid where PCP's scripts look for it, unless
// the file names another live process (PCP's pmcd, when this one runs
// beside it on another port): that file is left alone and this pmcd has
// none. The release function removes the file only while it is still
// this pmcd's.
func takePIDFile(path string, warn func(string)) func() {
	p, err := ownfile.TakePID(path, os.Getpid())
	if err != nil {
		warn(fmt.Sprintf("Warning: no pid file: %v", err))
		return func() {}
	}
	return func() {
		if err := p.Release(); err != nil {
			warn(fmt.Sprintf("Warning: pid file: %v", err))
		}
	}
}
