package clitest

import (
	"path/filepath"
	"strings"
	"testing"
)

// MultiArchive is QA's multi archive set (20150508.11.44, .46, .50, .57)
// in one of its copies, "multi" or "multi-xz".
type MultiArchive struct {
	Dir string // the QA directory holding the set
	Set string // which copy: "multi" or "multi-xz"
}

// Path names the member of the set logged at stamp ("11.44"); a stamp
// not in the set names an archive that does not exist.
func (m MultiArchive) Path(stamp string) string {
	return filepath.Join(m.Dir, "20150508."+stamp)
}

// MultiArchiveCases are the ways pmGetOptions takes several archives:
// several -a (which libpcp joins into one list), one comma-separated
// list, their directory, repeats, out of time order, one missing, a host
// among them, and PCP_ARCHIVE beside -a; each source with each of ops,
// on QA's multi archives plain and compressed. extra, if not nil, adds a
// tool's own cases for each copy of the set.
func MultiArchiveCases(t testing.TB, ops [][]string, extra func(MultiArchive) []Case) []Case {
	t.Helper()
	var cases []Case
	for _, set := range []string{"multi", "multi-xz"} {
		m := MultiArchive{Dir: QAArchive(t, set), Set: set}
		a := m.Path
		sources := []struct {
			what string
			args []string
		}{
			{"several -a", []string{"-a", a("11.44"), "-a", a("11.46"), "-a", a("11.50")}},
			{"comma list", []string{"-a", strings.Join([]string{a("11.44"), a("11.46"), a("11.57")}, ",")}},
			{"list and -a", []string{"-a", a("11.44") + "," + a("11.46"), "-a", a("11.50"), "-a", a("11.46")}},
			{"directory", []string{"-a", m.Dir}},
			{"repeated", []string{"-a", a("11.50"), "-a", a("11.50")}},
			{"out of order", []string{"-a", a("11.57"), "-a", a("11.44")}},
			{"one missing", []string{"-a", a("11.44"), "-a", a("no.such")}},
			{"host too", []string{"-a", a("11.44"), "-h", "local:", "-a", a("11.46")}},
		}
		for _, src := range sources {
			for _, op := range ops {
				cases = append(cases, Case{
					Name: set + " " + src.what + " " + strings.Join(op, " "),
					Args: append(append([]string{}, src.args...), op...),
				})
			}
		}
		if extra != nil {
			cases = append(cases, extra(m)...)
		}
		cases = append(cases, Case{
			Name: set + " PCP_ARCHIVE and -a",
			Env:  []string{"PCP_ARCHIVE=" + a("11.44")},
			Args: append([]string{"-a", a("11.46")}, ops[0]...),
		})
	}
	return cases
}
