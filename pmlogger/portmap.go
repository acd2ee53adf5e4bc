package pmlogger

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/pcp"
)

// PortMap is the file by which PCP's tools (pmlc, pmlogger_check) find a
// running pmlogger: $PCP_TMP_DIR/pmlogger/<pid>, holding the control port,
// the pmcd host, the archive's absolute base name and the -m note, one a
// line; the primary logger also has the symbolic link "primary" to it.
type PortMap struct {
	Path, Link string
	// owned is the map file as written, so that Remove leaves a file
	// another process has put in its place.
	owned *ownfile.Owned
}

// WritePortMap creates the port map file in dir (normally
// $PCP_TMP_DIR/pmlogger) for process pid, replacing any stale one, and,
// for the primary logger, the "primary" link. Remove undoes it.
func WritePortMap(dir string, pid, port int, host, archive, note string, primary bool) (*PortMap, error) {
	if err := os.MkdirAll(dir, 0o775); err != nil {
		return nil, fmt.Errorf("pmlogger: port map directory: %w", err)
	}
	if !filepath.IsAbs(archive) {
		if wd, err := os.Getwd(); err == nil {
			archive = wd + "/" + archive
		} else {
			archive = ""
		}
	}
	text := strconv.Itoa(port) + "\n" + host + "\n" + archive + "\n"
	if note != "" {
		text += note + "\n"
	}
	pm := &PortMap{Path: filepath.Join(dir, strconv.Itoa(pid))}
	os.Remove(pm.Path)
	f, err := os.OpenFile(pm.Path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("pmlogger: port map file: %w", err)
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(pm.Path)
		return nil, fmt.Errorf("pmlogger: port map file: %w", err)
	}
	pm.owned, _ = ownfile.Own(pm.Path)
	if primary {
		link := filepath.Join(dir, "primary")
		if fi, err := os.Lstat(link); err == nil && fi.Mode()&os.ModeSymlink == 0 {
			os.Remove(link) // an old-style hard link
		}
		pid := -1
		if target, err := os.Readlink(link); err == nil {
			if n, ok := pidIn(filepath.Base(target)); ok {
				pid = n
				if !ownfile.Alive(n) {
					os.Remove(link)
					os.Remove(filepath.Join(dir, strconv.Itoa(n)))
				}
			}
		}
		if _, err := os.Lstat(link); err == nil {
			who := "<unknown>"
			if pid >= 0 {
				who = strconv.Itoa(pid)
			}
			return pm, &PrimaryError{Msg: fmt.Sprintf("ERROR: there is already a primary pmlogger running, pid %s linkfile=%s", who, link)}
		}
		if err := os.Symlink(pm.Path, link); err != nil {
			return pm, fmt.Errorf("error creating primary logger symbolic link %s: %s", link, pcp.TextOf(err))
		}
		pm.Link = link
	}
	return pm, nil
}

// PrimaryError means another primary logger is running: pmlogger -P
// gives up.
type PrimaryError struct{ Msg string }

func (e *PrimaryError) Error() string { return e.Msg }

// Remove deletes the port map file and the primary link, each only while
// it is still this logger's: the link pointing at this logger's map file,
// the map file the one written.
func (pm *PortMap) Remove() {
	if pm == nil {
		return
	}
	if pm.Link != "" {
		RemoveLink(pm.Link, pm.Path)
	}
	pm.owned.Remove()
}

// RemoveLink removes the symbolic link at link if it still points at
// target: a link another logger has made since is its own.
func RemoveLink(link, target string) {
	if t, err := os.Readlink(link); err == nil && t == target {
		os.Remove(link)
	}
}
