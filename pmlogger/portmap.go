package pmlogger

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// PortMap is the file by which PCP's tools (pmlc, pmlogger_check) find a
// running pmlogger: $PCP_TMP_DIR/pmlogger/<pid>, holding the control port,
// the pmcd host, the archive's absolute base name and the -m note, one a
// line; the primary logger also has the symbolic link "primary" to it.
type PortMap struct {
	Path, Link string
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
	if primary {
		link := filepath.Join(dir, "primary")
		os.Remove(link)
		if err := os.Symlink(pm.Path, link); err != nil {
			return pm, fmt.Errorf("pmlogger: primary link: %w", err)
		}
		pm.Link = link
	}
	return pm, nil
}

// Remove deletes the port map file and the primary link, if this logger's.
func (pm *PortMap) Remove() {
	if pm == nil {
		return
	}
	if pm.Link != "" {
		if t, err := os.Readlink(pm.Link); err == nil && t == pm.Path {
			os.Remove(pm.Link)
		}
	}
	os.Remove(pm.Path)
}
