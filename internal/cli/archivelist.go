package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// The list forms pmGetOptions reads from the environment for every tool:
// PCP_ARCHIVE_LIST, PCP_HOST_LIST and PCP_FOLIO (an archive folio file,
// as pmafm and pmchart write them). Tools with one context take at most
// one host, and every archive joins the one list; tools with Multi take
// each name as a source of its own.

// addArchiveList is __pmAddOptArchiveList for a tool with one context:
// the whole comma-separated list added as one name.
func (p *Parsed) addArchiveList(list string) {
	if len(p.Hosts) > 0 {
		p.Errorf("only one of hosts or archives allowed")
		return
	}
	if !p.multi {
		p.AddArchive(list)
		return
	}
	// one name at a time; an empty one between commas counts, one after
	// a final comma does not
	for start := list; start != ""; {
		name, rest, more := strings.Cut(start, ",")
		p.AddArchive(name)
		if !more {
			break
		}
		start = rest
	}
}

// addHostList is __pmAddOptHostList: each non-empty name of a
// comma-separated list, and then an error if that made more than one.
func (p *Parsed) addHostList(list string) {
	if len(p.Archives) > 0 {
		p.Errorf("only one of hosts or archives allowed")
	} else {
		for _, h := range strings.Split(list, ",") {
			if h != "" {
				p.Hosts = append(p.Hosts, h)
			}
		}
	}
	if len(p.Hosts) > 1 && !p.multi {
		p.Errorf("too many hosts requested: %s", list)
	}
}

// addArchiveFolio is __pmAddOptArchiveFolio: the archives an archive
// folio names on its "Archive: host path" lines, a relative path taken
// from the folio's directory. named is false for a variable without a
// value (libpcp's NULL).
func (p *Parsed) addArchiveFolio(name string, named bool) {
	if len(p.Hosts) > 0 {
		p.Errorf("only one of hosts or archives allowed")
		return
	}
	bad := func(format string, args ...any) {
		p.Errorf(format, args...)
		p.RuntimeErr = true
	}
	if !named {
		bad("cannot open empty archive folio name")
		return
	}
	f, err := os.Open(name)
	if err != nil {
		bad("cannot open archive folio %s: %s", name, pcp.TextOf(err))
		return
	}
	defer f.Close()
	r := bufio.NewReader(f)
	line := func() (string, bool) {
		s, err := r.ReadString('\n')
		return s, err == nil || s != ""
	}
	s, ok := line()
	switch {
	case !ok:
		bad("archive folio %s has no header", name)
		return
	case !strings.HasPrefix(s, "PCPFolio"):
		bad("archive folio %s has bad magic", name)
		return
	}
	if s, ok = line(); !ok {
		bad("archive folio %s has no version", name)
		return
	} else if !strings.HasPrefix(s, "Version: 1") {
		bad("unknown version archive folio %s", name)
		return
	}
	dir := filepath.Dir(name)
	for n := 3; ; n++ {
		s, ok := line()
		if !ok {
			return
		}
		if !strings.HasPrefix(s, "Archive:") {
			continue
		}
		rest := skipSpace(skipWord(s))
		if strings.HasPrefix(rest, "\n") {
			bad("missing host on archive folio line %d", n)
			return
		}
		rest = skipSpace(skipWord(rest))
		if strings.HasPrefix(rest, "\n") {
			bad("missing path on archive folio line %d", n)
			return
		}
		path := rest[:len(rest)-len(skipWord(rest))]
		if !filepath.IsAbs(path) {
			path = dir + string(filepath.Separator) + path
		}
		p.AddArchive(path)
	}
}

// skipWord and skipSpace are the folio reader's steps: past non-space
// characters, and past spaces other than the newline.
func skipWord(s string) string {
	return strings.TrimLeftFunc(s, func(r rune) bool { return !isCSpace(r) })
}

func skipSpace(s string) string {
	return strings.TrimLeftFunc(s, func(r rune) bool { return isCSpace(r) && r != '\n' })
}

func isCSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r'
}
