package pmcd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/gopcp/gopcp/pmns"
)

// Files names what a daemon reads at start and again on SIGHUP: its
// pmcd.conf and its namespace. LoadPMNS reads the namespace (nil means
// pmns.Load).
type Files struct {
	ConfPath string
	PMNSPath string
	LoadPMNS func(path string) (*pmns.Tree, error)

	confTime, accessTime, pmnsTime time.Time
}

// Remember records the modification times of the files now in force,
// so that Rescan can tell whether they have changed.
func (f *Files) Remember() {
	f.confTime = modTime(f.ConfPath)
	f.accessTime = modTime(f.ConfPath + ".access")
	f.pmnsTime = modTime(f.PMNSPath)
}

func modTime(path string) time.Time {
	if path == "" {
		return time.Time{}
	}
	st, err := os.Stat(path)
	if err != nil {
		return time.Time{}
	}
	return st.ModTime()
}

// Rescan is what PCP's pmcd does on SIGHUP: the namespace is loaded again
// if its file changed; pmcd.conf (and pmcd.conf.access) too, the new
// agents started, the removed ones stopped and the changed ones
// restarted, and every client judged again by the new access control; a
// pmcd.conf that is unchanged only has its dead agents restarted, and one
// with errors or no agents is ignored. What happened is logged as PCP
// logs it. Rescan is safe to call while serving; calls take turns.
func (s *Server) Rescan(ctx context.Context, f *Files) {
	s.rescanMu.Lock()
	defer s.rescanMu.Unlock()
	// Counted once done, so that a client seeing the count sees what
	// the rescan did (PCP's pmcd counts in its signal handler, and acts
	// before it answers another request).
	defer s.ctl.Sighups.Add(1)
	s.checkLabels()
	var tree *pmns.Tree
	if f.PMNSPath != "" {
		if t := modTime(f.PMNSPath); !t.Equal(f.pmnsTime) {
			s.logf("Reloading PMNS %q", f.PMNSPath)
			load := f.LoadPMNS
			if load == nil {
				load = pmns.Load
			}
			var err error
			if tree, err = load(f.PMNSPath); err != nil {
				s.logf("cannot reload PMNS %q: %v", f.PMNSPath, err)
				tree = nil
			} else {
				f.pmnsTime = t
			}
		} else {
			s.logf("PMNS file %q is unchanged", f.PMNSPath)
		}
	}
	if f.ConfPath == "" {
		if tree != nil {
			s.Reload(ctx, nil, tree)
		} else {
			s.RestartDead(ctx)
		}
		return
	}
	ct, at := modTime(f.ConfPath), modTime(f.ConfPath+".access")
	if ct.IsZero() {
		s.logf("Configuration file '%s' cannot be read; configuration left unchanged", f.ConfPath)
		if tree != nil {
			s.Reload(ctx, nil, tree)
		}
		return
	}
	if ct.Equal(f.confTime) && at.Equal(f.accessTime) {
		s.logf("Configuration file '%s' unchanged; restarting any deceased agents", f.ConfPath)
		if tree != nil {
			s.Reload(ctx, nil, tree)
		} else {
			s.RestartDead(ctx)
		}
		return
	}
	conf, err := LoadConf(f.ConfPath)
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		s.logf("Configuration file '%s' has errors:\n%v\nConfiguration left unchanged", f.ConfPath, err)
		conf = nil
	case err != nil || len(conf.Agents) == 0:
		s.logf("Configuration file '%s' has no valid agents; configuration left unchanged", f.ConfPath)
		conf = nil
	default:
		f.confTime, f.accessTime = ct, at
		if w := s.bareLog(); w != nil {
			for _, e := range conf.Errors {
				fmt.Fprintln(w, e)
			}
		}
		for _, w := range conf.Warnings {
			s.logf("%s", w)
		}
	}
	if conf == nil && tree == nil {
		s.RestartDead(ctx)
		return
	}
	s.Reload(ctx, conf, tree)
}
