package pmapi

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

// openArchives opens what an archive context's name names, as libpcp's
// initarchive does: the comma-separated names, each an archive or a
// directory standing for every archive in it (those with a .meta file),
// sorted by start time. Archives must come from one host
// (pcp.ErrLogHost); two starting at the same time are the same archive
// named twice or pcp.ErrLogOverlap.
func openArchives(name string) ([]*archive.Archive, error) {
	if name == "" {
		return nil, pcp.ErrLogFile
	}
	var names []string
	for _, n := range strings.Split(name, ",") {
		if n == "" {
			continue
		}
		ents, err := os.ReadDir(n)
		if err != nil {
			names = append(names, n)
			continue
		}
		for _, e := range ents {
			if base, ok := strings.CutSuffix(e.Name(), ".meta"); ok {
				names = append(names, filepath.Join(n, base))
			} else if i := strings.Index(e.Name(), ".meta."); i > 0 && !strings.Contains(e.Name()[i+6:], ".") {
				names = append(names, filepath.Join(n, e.Name()[:i]))
			}
		}
	}
	if len(names) == 0 {
		return nil, pcp.ErrLogFile
	}
	var logs []*archive.Archive
	var named []string
	for _, n := range names {
		a, err := archive.Open(n, archive.Options{})
		if err != nil {
			return nil, err
		}
		if len(logs) > 0 && a.Label.Hostname != logs[0].Label.Hostname {
			return nil, pcp.ErrLogHost
		}
		dup := false
		for i, b := range logs {
			if a.Label.Start.Sub(b.Label.Start) == 0 {
				if named[i] != n {
					return nil, pcp.ErrLogOverlap
				}
				dup = true
			}
		}
		if !dup {
			logs = append(logs, a)
			named = append(named, n)
		}
	}
	sort.SliceStable(logs, func(i, j int) bool { return logs[i].Label.Start.Sub(logs[j].Label.Start) < 0 })
	return logs, nil
}
