package ownfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

// OpenLog starts a daemon's log at path as libpcp's pmOpenLog does: the
// previous log is moved aside to path+".prev" (replacing an older .prev)
// and a new file is created, so nothing is ever truncated and a process
// still writing to the old log goes on writing to the .prev. It refuses,
// with an *InUseError and nothing touched, when another live process
// holds path or its .prev open: moving a running daemon's log aside, or
// deleting the .prev it was moved to, would hide or lose what it writes.
// Where open files cannot be examined (not Linux, or another user's
// processes) nobody is taken to hold them.
func OpenLog(path string) (*os.File, error) {
	prev := path + ".prev"
	for _, p := range []string{path, prev} {
		if pid := holder(p); pid > 0 {
			return nil, &InUseError{Path: p, PID: pid, How: "holds it open"}
		}
	}
	// A directory is not a log to move aside: libpcp leaves it where it
	// is, and its open then fails with EISDIR.
	if st, err := os.Lstat(path); err == nil && st.IsDir() {
		return nil, &os.PathError{Op: "open", Path: path, Err: syscall.EISDIR}
	}
	if err := os.Remove(prev); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err := os.Rename(path, prev); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	// O_EXCL: a file that appeared since (another daemon starting at
	// the same moment) is its log, not to be truncated.
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
}

// Stamp is the time in the prefix of PCP's daemon log lines
// ("[Sat Nov 28 17:50:18] pmcd(123) Info: ...").
func Stamp() string { return time.Now().Format("Mon Jan _2 15:04:05") }

// Notify writes one line as libpcp's pmNotifyErr does to a daemon's log
// or standard error: the stamp, the program and its process id, the
// level ("Info", "Warning", "Error", "Critical") and the message.
func Notify(w io.Writer, prog, level, msg string) {
	fmt.Fprintf(w, "[%s] %s(%d) %s: %s\n", Stamp(), prog, os.Getpid(), level, msg)
}

// WriteLogHeader starts a daemon's log as libpcp's pmOpenLog does: the
// program, the host and the time, then a blank line.
func WriteLogHeader(w io.Writer, prog string) {
	host, _ := os.Hostname()
	fmt.Fprintf(w, "Log for %s on %s started %s\n\n", prog, host, time.Now().Format("Mon Jan _2 15:04:05 2006"))
}

// WriteLogFooter ends a daemon's log as libpcp does at exit.
func WriteLogFooter(w io.Writer) {
	fmt.Fprintf(w, "\nLog finished %s\n", time.Now().Format("Mon Jan _2 15:04:05 2006"))
}
