package pmcd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/gopcp/gopcp/pmns"
)

// Files names what a daemon reads at start and again on SIGHUP: its
// pmcd.conf and its namespace. LoadPMNS reads the namespace (nil means
// pmns.Load). PMNSName is how the log names the namespace, PMNSPath when
// empty: PCP's pmcd says "DEFAULT" for the one it loads without -n.
type Files struct {
	ConfPath string
	PMNSPath string
	PMNSName string
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

// Rescan is what PCP's pmcd does on SIGHUP, and logs as PCP's logs it:
// "pmcd RESTARTED" with the table of clients; pmcd.conf (and
// pmcd.conf.access) read again if they changed, the new agents started,
// the removed ones stopped and the changed ones restarted, and every
// client judged again by the new access control; a pmcd.conf that is
// unchanged only has its dead agents restarted (named in the log), and
// one with errors or no agents is ignored; then the agent table and the
// access lists; last, the namespace loaded again if its file changed.
// Rescan is safe to call while serving; calls take turns.
func (s *Server) Rescan(ctx context.Context, f *Files) {
	s.rescanMu.Lock()
	defer s.rescanMu.Unlock()
	// Counted once done, so that a client seeing the count sees what
	// the rescan did (PCP's pmcd counts in its signal handler, and acts
	// before it answers another request).
	defer s.ctl.Sighups.Add(1)
	// PCP's message ends in ctime's newline and pmNotifyErr adds one.
	s.logf("Info: \n\npmcd RESTARTED at %s\n", ctime(timeNow()))
	bare := func(format string, args ...any) {
		if w := s.bareLog(); w != nil {
			fmt.Fprintf(w, format, args...)
		}
	}
	bare("\nCurrent PMCD clients ...\n%s", s.ClientTable())
	s.checkLabels()
	// The namespace is read first, so that agents and names change
	// together, but reported last, where PCP reports it.
	var tree *pmns.Tree
	pmnsNote := ""
	if f.PMNSPath != "" {
		name := f.PMNSName
		if name == "" {
			name = f.PMNSPath
		}
		if t := modTime(f.PMNSPath); !t.Equal(f.pmnsTime) {
			pmnsNote = fmt.Sprintf("Info: Reloading PMNS \"%s\"", name)
			load := f.LoadPMNS
			if load == nil {
				load = pmns.Load
			}
			var err error
			if tree, err = load(f.PMNSPath); err != nil {
				pmnsNote += fmt.Sprintf("\n%v", err)
				tree = nil
			} else {
				f.pmnsTime = t
			}
		} else {
			pmnsNote = fmt.Sprintf("Info: PMNS file \"%s\" is unchanged", name)
		}
	}
	defer func() {
		if pmnsNote != "" {
			s.logf("%s", pmnsNote)
		}
	}()
	restartDead := func() {
		bare("Configuration file '%s' unchanged\nRestarting any deceased agents:\n", f.ConfPath)
		// Agents whose process ended are found now, as PCP finds them.
		s.reloadMu.Lock()
		s.reapDead()
		s.reloadMu.Unlock()
		var dead []string
		for _, a := range s.st().order {
			if !a.alive() {
				dead = append(dead, fmt.Sprintf("    \"%s\" agent\n", a.conf.Name))
			}
		}
		if len(dead) == 0 {
			bare("    (no agents required restarting)\n")
		} else {
			bare("%s\n", strings.Join(dead, ""))
		}
		if tree != nil {
			s.Reload(ctx, nil, tree)
			if len(dead) > 0 {
				s.ctl.Seqnum.Add(1) // as RestartDead counts a restart
			}
		} else {
			s.RestartDead(ctx)
		}
		bare("%s", s.tables())
	}
	if f.ConfPath == "" {
		if tree != nil {
			s.Reload(ctx, nil, tree)
		} else {
			s.RestartDead(ctx)
		}
		bare("%s", s.tables())
		return
	}
	ct, at := modTime(f.ConfPath), modTime(f.ConfPath+".access")
	if ct.IsZero() {
		msg := "cannot be read"
		var pe *fs.PathError
		if _, err := os.Stat(f.ConfPath); errors.As(err, &pe) {
			msg = pe.Err.Error()
		}
		bare("ParseRestartAgents: stat %s: %s\nConfiguration left unchanged\n", f.ConfPath, msg)
		if tree != nil {
			s.Reload(ctx, nil, tree)
		}
		return
	}
	if ct.Equal(f.confTime) && at.Equal(f.accessTime) {
		restartDead()
		return
	}
	conf, err := LoadConf(f.ConfPath)
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		var ce *ConfError
		if errors.As(err, &ce) {
			for _, l := range ce.Lines {
				if IsNote(l) {
					s.logf("%s", l)
				} else {
					bare("%s\n", l)
				}
			}
		} else {
			bare("%v\n", err)
		}
		bare("Configuration file '%s' has errors\nConfiguration left unchanged\n", f.ConfPath)
		conf = nil
	case err != nil || len(conf.Agents) == 0:
		bare("Configuration file '%s' has no valid agents\nConfiguration left unchanged\n", f.ConfPath)
		conf = nil
	default:
		f.confTime, f.accessTime = ct, at
		for _, e := range conf.Errors {
			bare("%v\n", e)
		}
		for _, w := range conf.Warnings {
			if IsNote(w) {
				s.logf("%s", w)
			} else {
				bare("%s\n", w)
			}
		}
	}
	switch {
	case conf == nil && tree == nil:
		// PCP leaves the agents as they are here, dead ones too.
	default:
		s.Reload(ctx, conf, tree)
	}
	bare("%s", s.tables())
}
