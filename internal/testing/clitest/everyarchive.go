package clitest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// EveryArchive is the fixed sweep's list of PCP's QA archives (single
// ones, the directories of archives and one comma-separated list), each
// with a few metric names of its own namespace: the first, middle and
// last leaves (the anonymous event.flags and event.missed left out), the
// top of the first and a name that does not exist. By default only
// the archives whose files total under small bytes, so that the sweep
// stays short; GOPCP_EVERY_ARCHIVE=1 takes every archive (a run of
// several minutes per tool; the largest archives' value dumps run to
// millions of lines).
type EveryArchive struct {
	Path  string
	Names []string // leaves, then the top and "no.such.metric"
}

// EveryArchives lists the archives of the fixed sweep for t.
func EveryArchives(t *testing.T, small int64) []EveryArchive {
	t.Helper()
	all := os.Getenv("GOPCP_EVERY_ARCHIVE") == "1"
	list := qaArchives(t)
	list = append(list, strings.Join([]string{
		filepath.Join(QAArchives, "multi-vm00"), filepath.Join(QAArchives, "multi-vm01"),
		filepath.Join(QAArchives, "multi-vm02")}, ","))
	var s Sweep
	var out []EveryArchive
	for _, a := range list {
		if !all && archiveBytes(a) >= small {
			continue
		}
		var leaves []string
		for _, n := range s.Names(t, a) {
			if n != "event.flags" && n != "event.missed" {
				leaves = append(leaves, n)
			}
		}
		var names []string
		if len(leaves) > 0 {
			names = append(names, leaves[0])
			for _, n := range []string{leaves[len(leaves)/2], leaves[len(leaves)-1]} {
				if n != names[len(names)-1] && n != names[0] {
					names = append(names, n)
				}
			}
			top, _, _ := strings.Cut(leaves[0], ".")
			names = append(names, top)
		}
		out = append(out, EveryArchive{Path: a, Names: append(names, "no.such.metric")})
	}
	t.Logf("%d archives (GOPCP_EVERY_ARCHIVE=1 for all %d)", len(out), len(list))
	return out
}

// archiveBytes is the size of an archive's files, of a directory's or
// of a list's archives.
func archiveBytes(a string) int64 {
	var n int64
	for _, p := range strings.Split(a, ",") {
		pattern := p + ".*"
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			pattern = filepath.Join(p, "*")
		}
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			if st, err := os.Stat(f); err == nil {
				n += st.Size()
			}
		}
	}
	return n
}

// CaseName names a case of the fixed sweep by its archive and options.
func (e EveryArchive) CaseName(i int, args []string) string {
	var opts []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			opts = append(opts, a)
		}
	}
	base := filepath.Base(e.Path)
	if strings.Contains(e.Path, ",") {
		base = "multi-vm-list"
	}
	return base + " " + strconv.Itoa(i) + strings.Join(opts, "")
}
