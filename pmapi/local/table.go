package local

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/internal/cstrtod"
	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pcp"
)

// Entry is one entry of a local context's agent table: the domain,
// the shared object PCP would load and its entry point. The entry point
// names the in-process agent of the pmda registry that stands in for the
// shared object; the path is kept for messages only.
type Entry struct {
	Domain int
	Path   string
	Entry  string
}

// Table is the table of agents local contexts run, PCP's DSO table:
// built from the "dso" lines of pmcd.conf ($PCP_PMCDCONF_PATH) and changed
// by the -K specifications of PCP's tools (Spec). The pmcd agent's line is
// skipped, as it only works inside pmcd, and a "linux" line of any type
// stands for the linux agent in-process (domain 60, linux_init), as in
// PCP. A Table is not safe for concurrent changes; build it before
// making contexts from it.
type Table struct {
	built  bool
	agents []Entry
	// deleted entries keep their place with Domain -1, as in PCP.
}

// NewTable returns a table that is read from pmcd.conf when first
// needed: by the first Add or Del, or by a context made from it. A Clear
// before that leaves the table empty without reading the file.
func NewTable() *Table { return &Table{} }

// build reads pmcd.conf once.
func (t *Table) build() error {
	if t.built {
		return nil
	}
	t.built = true
	pmdas := pmdasDir()
	path, ok := pcpconf.Get("PCP_PMCDCONF_PATH")
	if !ok {
		return pcp.ErrGeneric
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return errnoOf(err)
	}
	t.agents = append(t.agents, confAgents(b, pmdas)...)
	return nil
}

// confAgents reads the agents of pmcd.conf text that a local context
// runs, scanning it as libpcp 6.0.3's build_dsotab does: lines starting
// with '#' or "pmcd" are skipped, one starting with "linux" is the linux
// agent, and any other is a name, a domain (strtol's, which may read on
// past the end of the line), a type that must start with "dso", an entry
// point and a path; an entry point that ends its line takes its path from
// the next one, as libpcp's does. The text ends at a NUL, as a C string.
func confAgents(b []byte, pmdas string) []Entry {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	at := func(i int) byte {
		if i < len(b) {
			return b[i]
		}
		return 0
	}
	space := func(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
	skip := func(p int, want bool) int { // past spaces (want) or a word, within the line
		for at(p) != 0 && at(p) != '\n' && space(at(p)) == want {
			p++
		}
		return p
	}
	var agents []Entry
	for p := 0; p < len(b); {
		switch rest := b[p:]; {
		case rest[0] == '#', bytes.HasPrefix(rest, []byte("pmcd")):
		case bytes.HasPrefix(rest, []byte("linux")):
			agents = append(agents, Entry{60, filepath.Join(pmdas, "linux", "pmda_linux.so"), "linux_init"})
		default:
			p = skip(skip(p, false), true)
			domain, n, _ := cstrtod.ParseInt(b[p:], 10) // strtol(p, &q, 10)
			p = skip(p+n, true)
			if !bytes.HasPrefix(b[p:], []byte("dso")) {
				break
			}
			p = skip(p+3, true)
			start := p
			p = skip(p, false)
			entry := string(b[start:p])
			path := ""
			if p < len(b) { // libpcp reads on past the end here
				start = skip(p+1, true)
				p = skip(start, false)
				path = string(b[start:p])
			}
			agents = append(agents, Entry{Domain: int(int32(domain)), Path: path, Entry: entry})
		}
		for at(p) != 0 && at(p) != '\n' {
			p++
		}
		if at(p) == '\n' {
			p++
		}
	}
	return agents
}

// errnoOf is an operating system error as the PCP code libpcp returns
// for it, -errno, keeping the error's text after it.
func errnoOf(err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return fmt.Errorf("%w (%v)", pcp.Error(-int32(errno)), err)
	}
	return err
}

func pmdasDir() string {
	if d, ok := pcpconf.Get("PCP_PMDAS_DIR"); ok {
		return d
	}
	return "/var/lib/pcp/pmdas"
}

// Add appends an agent to the table, as pmSpecLocalPMDA's "add" does.
func (t *Table) Add(domain int, path, entry string) error {
	if err := t.build(); err != nil {
		return err
	}
	t.agents = append(t.agents, Entry{Domain: domain, Path: path, Entry: entry})
	return nil
}

// Del drops the agents of a domain (unless domain is -1) and those of a
// path (unless path is ""), as pmSpecLocalPMDA's "del" does; finding
// none is pcp.ErrInDom, PCP's answer.
func (t *Table) Del(domain int, path string) error {
	if err := t.build(); err != nil {
		return err
	}
	found := false
	for i := range t.agents {
		a := &t.agents[i]
		if (domain != -1 && a.Domain == domain) || (path != "" && a.Path == path) {
			a.Domain = -1
			found = true
		}
	}
	if !found {
		return pcp.ErrInDom
	}
	return nil
}

// Clear empties the table, as pmSpecLocalPMDA's "clear" does.
func (t *Table) Clear() {
	t.built = true
	t.agents = nil
}

// List returns the table's live entries in order; the caller must not
// change them. It reads pmcd.conf if that was not done yet.
func (t *Table) List() ([]Entry, error) {
	if err := t.build(); err != nil {
		return nil, err
	}
	var out []Entry
	for _, a := range t.agents {
		if a.Domain >= 0 {
			out = append(out, a)
		}
	}
	return out, nil
}

// SpecError is a -K specification pmSpecLocalPMDA refuses; its text is
// PCP's message.
type SpecError struct {
	Spec string
	Msg  string
	Err  error // the table's error, for "__pmLocalPMDA: ..." messages
}

func (e *SpecError) Error() string { return e.Msg }
func (e *SpecError) Unwrap() error {
	if e.Err != nil {
		return e.Err
	}
	return pcp.ErrGeneric
}

// Spec applies one -K specification, as pmSpecLocalPMDA does:
// "add,DOMAIN,PATH,ENTRY", "del,DOMAIN", "del,,PATH" or "clear". A
// malformed specification is a *SpecError with PCP's message.
func (t *Table) Spec(spec string) error {
	bad := func(msg string) error { return &SpecError{Spec: spec, Msg: msg} }
	var op, rest string
	switch {
	case strings.HasPrefix(spec, "add"):
		op, rest = "add", spec[3:]
	case strings.HasPrefix(spec, "del"):
		op, rest = "del", spec[3:]
	case strings.HasPrefix(spec, "clear"):
		if spec != "clear" {
			return bad("unexpected text after clear op in spec")
		}
		t.Clear()
		return nil
	default:
		return bad("bad op in spec")
	}
	if !strings.HasPrefix(rest, ",") {
		return bad("expected , after op in spec")
	}
	rest = rest[1:]
	domain := -1
	switch {
	case rest == "":
		return bad("missing domain in spec")
	case rest[0] != ',':
		// libpcp's (int)strtol(arg, &ap, 10): white space before it
		// taken, a long out of range saturated and cut to an int.
		v, end, _ := cstrtod.ParseInt(rest, 10)
		tail, n := rest[end:], int32(v)
		if (tail != "" && tail[0] != ',') || n < 0 || n > 510 {
			return bad("bad domain in spec")
		}
		domain = int(n)
		rest = strings.TrimPrefix(tail, ",")
	default:
		if op != "del" {
			return bad("missing domain in spec")
		}
		rest = rest[1:]
	}
	var path, entry string
	switch {
	case strings.HasPrefix(rest, ","):
		entry = rest[1:]
	case rest != "":
		var hasEntry bool
		path, entry, hasEntry = strings.Cut(rest, ",")
		if (!hasEntry || entry == "") && op != "del" {
			return bad("missing init-routine in spec")
		}
	default:
		if op != "del" {
			return bad("missing dso-path in spec")
		}
	}
	if domain == -1 && path == "" {
		return bad("missing domain and dso-path in spec")
	}
	var err error
	if op == "add" {
		err = t.Add(domain, path, entry)
	} else {
		err = t.Del(domain, path)
	}
	if err != nil {
		return &SpecError{Spec: spec, Msg: "__pmLocalPMDA: " + pcp.TextOf(err), Err: err}
	}
	return nil
}
