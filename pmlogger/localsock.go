package pmlogger

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/pcp"
)

// LocalSocketPath is where a pmlogger's Unix-domain control socket lives,
// $PCP_RUN_DIR/pmlogger.<pid>.socket; pmlc -h local: finds it there.
func LocalSocketPath(runDir string, pid int) string {
	return filepath.Join(runDir, "pmlogger."+strconv.Itoa(pid)+".socket")
}

// userSocketPath is the control socket of a logger that could not bind
// LocalSocketPath: ~/.pcp/run/pmlogger.<pid>.socket under home.
func userSocketPath(home string, pid int) string {
	return LocalSocketPath(filepath.Join(home, ".pcp", "run"), pid)
}

// ListenLocal opens the Unix-domain control socket as PCP's pmlogger
// does: at LocalSocketPath, or when that cannot be bound at
// ~/.pcp/run/pmlogger.<pid>.socket, readable and writable by all (the
// peer's credentials decide, see ServeControl). warn receives pmlogger's
// complaints when neither can be bound, or the socket cannot be opened to
// all; the logger then has only its TCP port. The socket is bound by
// ownfile's rules (ListenUnix): where PCP's pmlogger removes whatever
// held the first path before trying the second, only a stale socket is
// removed here, and closing the listener removes the file only while it
// is still this logger's.
func ListenLocal(runDir string, pid int, warn func(string)) (*ownfile.Socket, string) {
	path := LocalSocketPath(runDir, pid)
	ln, err := ownfile.ListenUnix(path, 0o666)
	if err != nil && !isChmod(err) {
		first := bindText(path, err)
		home, herr := os.UserHomeDir()
		if herr != nil {
			warn(first + "\n" + fmt.Sprintf("__pmLogLocalSocketUser(): %v\n", herr))
			return nil, ""
		}
		path = userSocketPath(home, pid)
		os.MkdirAll(filepath.Dir(path), 0o755)
		ln, err = ownfile.ListenUnix(path, 0o666)
		if err != nil && !isChmod(err) {
			warn(first + "\n" + bindText(path, err) + "\n")
			return nil, ""
		}
	}
	if err != nil {
		// As PCP's pmlogger, no socket that is not open to all.
		warn(fmt.Sprintf("GetPorts: chmod(%s): %s\n", path, pcp.TextOf(err)))
		return nil, ""
	}
	return ln, path
}

// isChmod reports whether ListenUnix failed giving the socket its mode,
// after the bind.
func isChmod(err error) bool {
	var pe *os.PathError
	return errors.As(err, &pe) && pe.Op == "chmod"
}

func bindText(path string, err error) string {
	var se *os.SyscallError
	if errors.As(err, &se) {
		if en, ok := se.Err.(syscall.Errno); ok {
			return fmt.Sprintf("__pmBind(%s): %s", path, osErrText(en))
		}
	}
	return fmt.Sprintf("__pmBind(%s): %v", path, err)
}

// osErrText is strerror's text for errno, capitalised as glibc's.
func osErrText(e syscall.Errno) string {
	s := e.Error()
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// PrimarySocket makes $PCP_RUN_DIR/pmlogger.primary.socket, the link by
// which pmlc -P reaches the primary logger's socket, after removing a
// link left by a primary logger no longer running (and its socket). It
// fails when a live primary's link is there. Remove the returned link at
// exit.
func PrimarySocket(runDir, socket string) (string, error) {
	link := filepath.Join(runDir, "pmlogger.primary.socket")
	if fi, err := os.Lstat(link); err == nil && fi.Mode()&os.ModeSocket != 0 {
		os.Remove(link) // an old-style hard link to a socket
	}
	if target, err := os.Readlink(link); err == nil {
		if pid, ok := pidIn(filepath.Base(target)); ok && !ownfile.Alive(pid) {
			os.Remove(link)
			os.Remove(target)
		}
	}
	if _, err := os.Lstat(link); err == nil {
		return "", fmt.Errorf("ERROR: there is already a primary pmlogger running, socketPath=%s linkSocketPath=%s", socket, link)
	}
	if err := os.Symlink(socket, link); err != nil {
		return "", fmt.Errorf("error creating primary logger socket symbolic link %s: %s", link, pcp.TextOf(err))
	}
	return link, nil
}

// pidIn reads the first number in s (pmlogger.<pid>.socket, or a port
// map file's name).
func pidIn(s string) (int, bool) {
	i := strings.IndexAny(s, "0123456789")
	if i < 0 {
		return 0, false
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(s[i:j])
	return n, err == nil
}
