package pmcd

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/pcp"
)

// AgentKind is how pmcd reaches an agent, as pmcd.conf spells it.
type AgentKind int

// The kinds of agent line in pmcd.conf.
const (
	AgentDSO    AgentKind = iota // "dso": in-process, by entry point
	AgentPipe                    // "pipe binary": a child on stdin/stdout
	AgentSocket                  // "socket": a daemon reached on a socket
)

// lookupHost resolves the host names of [access] statements; nil is the
// system's resolver. Tests replace it to stay off the network.
var lookupHost func(name string) ([]net.IP, error)

// maxDomain is the largest domain number pmcd.conf may give an agent.
const maxDomain = 510

// AgentConf is one agent line of pmcd.conf.
type AgentConf struct {
	Name   string
	Domain uint32
	Kind   AgentKind
	// Entry and Path are a DSO's entry point and shared object; in this
	// pmcd the entry point names an agent registered with RegisterDSO.
	Entry, Path string
	// Family ("inet", "ipv6" or "unix") and Addr (port or path) locate a
	// socket agent.
	Family, Addr string
	// Argv is a pipe agent's command, or the optional command that
	// starts a socket agent.
	Argv []string
	// NotReady is a pipe agent's "notready" keyword: it starts busy.
	NotReady bool
	// Line is the agent's line number in the file.
	Line int
}

// Conf is a parsed pmcd.conf.
type Conf struct {
	Agents []AgentConf
	// Access holds the statements of the [access] section (and of the
	// optional pmcd.conf.access file), one per element without its ';',
	// comments removed.
	Access []string
	// ACL is the access control those statements set up, nil when there
	// are none (everything allowed).
	ACL *access.Control
	// Warnings are PCP's complaints about statements that were ignored,
	// such as a host name that does not resolve.
	Warnings []string
	// Errors are PCP's messages for agent lines that were left out of a
	// configuration that is nevertheless good: PCP judges a file by its
	// last agent line (and its access control), so a bad line followed
	// by a good one is reported and skipped.
	Errors []string
}

// LoadConf reads and parses the pmcd.conf at path; messages name it
// "pmcd", as PCP's do.
func LoadConf(path string) (*Conf, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// PCP reads access statements from PATH.access too, after the
	// [access] section, with no [access] line of its own.
	extra, err := os.ReadFile(path + ".access")
	if err != nil {
		extra = nil
	}
	// PCP's pmcd names neither file in its messages, only "pmcd".
	return parseConf(f, "pmcd", extra)
}

// ParseConf parses pmcd.conf text. source names it in messages, which
// follow PCP's "SOURCE config[line N]: Error: ..." form. As with PCP's
// pmcd, the file is bad, and the error lists every message, when its last
// agent line is bad, its [access] section or pmcd.conf.access file is, or
// it cannot be read to the end (a line too long); a bad agent line
// followed by a good one only leaves that agent out (Conf.Errors). After
// a bad last agent line the access statements are not read, as PCP does
// not read them.
func ParseConf(r io.Reader, source string) (*Conf, error) {
	return parseConf(r, source, nil)
}

// parseConf is ParseConf with the text of an optional pmcd.conf.access
// file.
func parseConf(r io.Reader, source string, accessFile []byte) (*Conf, error) {
	c := &Conf{}
	var problems []string
	bad := func(line int, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s config[line %d]: Error: ", source, line)+fmt.Sprintf(format, args...))
	}
	all, stale, tooLong, err := confLines(r, source)
	if err != nil {
		// PCP's reader stops at the line fgets failed on (a directory
		// fails at once) and gives up on the file.
		return nil, &ConfError{Lines: []string{
			fmt.Sprintf("%s config[line %d]: Error: fgets failed: %s", source, len(all), pcp.TextOf(err)),
			source + " config: Can't continue, giving up"}}
	}
	line := 0
	// lastFailed is PCP's status: that of the last agent line read.
	lastFailed := false
	inAccess := false
	accessFirst := 0
	var accessLines []string
	for k, raw := range all {
		line++
		text := raw
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		if inAccess {
			accessLines = append(accessLines, text)
			continue
		}
		toks, unterminated := confTokens(raw)
		if unterminated {
			// PCP's scanner gives up on the file there; the parser
			// meanwhile reads an empty word in its place, and complains
			// of it or of an earlier one in the order it reads them.
			if len(toks) > 0 {
				_, msg, at, _ := parseAgentLine(append(toks, confToken{}), raw, line, false, true)
				if msg != "" && at < len(toks) {
					bad(line, "%s", msg)
					msg = ""
				}
				bad(line, "unterminated quoted string")
				if msg != "" {
					bad(line, "%s", msg)
				}
			} else {
				bad(line, "unterminated quoted string")
			}
			problems = append(problems, source+" config: Can't continue, giving up")
			lastFailed = true
			break
		}
		if len(toks) == 0 {
			continue
		}
		f := make([]string, len(toks))
		for i, t := range toks {
			f[i] = t.text
		}
		if strings.HasPrefix(f[0], "[") {
			if lastFailed {
				break
			}
			rest := strings.TrimSpace(text)
			if !strings.HasPrefix(rest, "[access]") {
				bad(line, "\"access\" keyword expected")
				lastFailed = true
				break
			}
			inAccess = true
			accessFirst = line
			accessLines = append(accessLines, rest[len("[access]"):])
			continue
		}
		a, msg, _, last := parseAgentLine(toks, raw, line, stale[k], false)
		// PCP checks the domain against the agents before it reads the
		// rest of the line
		if validDomain(f) {
			clash := false
			for _, o := range c.Agents {
				if o.Domain == a.Domain {
					bad(line, "domain number for \"%s\" agent clashes with \"%s\" agent", a.Name, o.Name)
					clash = true
					break
				}
			}
			if clash {
				lastFailed = true
				continue
			}
		}
		if msg != "" {
			bad(line, "%s", msg)
			lastFailed = true
			if last {
				break
			}
			continue
		}
		lastFailed = false
		if a.Name != "" {
			c.Agents = append(c.Agents, a)
		}
	}
	failed := lastFailed
	if tooLong != "" {
		problems = append(problems, tooLong, source+" config: Can't continue, giving up")
		failed, inAccess = true, false
	}
	acl := access.New(access.Options{Lookup: lookupHost})
	accessFailed := false
	// last is the line PCP's messages at the end of the input name: the
	// count of its newlines plus one.
	parse := func(lines []string, first, last int, source string) {
		msgs, ok := acl.Parse(lines, first, last, source)
		c.Warnings = append(c.Warnings, msgs...)
		if !ok {
			accessFailed = true
		}
		c.Access = append(c.Access, statements(lines)...)
	}
	if inAccess {
		// The scanner's lines each ended with a newline (or the input).
		parse(accessLines, accessFirst, accessFirst+len(accessLines), "pmcd")
	}
	if accessFile != nil && !failed && !accessFailed {
		lines := strings.Split(string(accessFile), "\n")
		for i, l := range lines {
			if j := strings.IndexByte(l, '#'); j >= 0 {
				lines[i] = l[:j]
			}
		}
		// Split's last element is what follows the last newline.
		parse(lines, 1, len(lines), "access")
	}
	if accessFailed {
		// The access messages, warnings too, explain the failure.
		problems = append(problems, c.Warnings...)
	}
	if !acl.Empty() {
		c.ACL = acl
	}
	if failed || accessFailed {
		return nil, &ConfError{Lines: problems}
	}
	c.Errors = problems
	return c, nil
}

// statements splits access text into its statements, without their ';'
// and with white space made single.
func statements(lines []string) []string {
	var out []string
	for _, s := range strings.Split(strings.Join(lines, " "), ";") {
		if s = strings.Join(strings.Fields(s), " "); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// IsNote reports whether a message of a Conf (Errors, Warnings) or of a
// ConfError's Lines is one PCP's pmcd gives through pmNotifyErr, to be
// written with its time and process (access.NotePrefix), rather than as
// it is.
func IsNote(msg string) bool { return strings.HasPrefix(msg, access.NotePrefix) }

// ConfError lists what is wrong with a pmcd.conf, one message per line
// at fault.
type ConfError struct {
	Lines []string
}

func (e *ConfError) Error() string { return strings.Join(e.Lines, "\n") }

// parseAgentLine reads the fields of one agent line (raw is the line as
// read, its comment included), or says what is wrong with it in PCP's
// words; last reports an error after which PCP's pmcd reads no more of
// the file. That is after a DSO path that is not absolute, when nothing
// but white space or a comment follows it: PCP cuts the line's newline
// off to print the path, and its scanner then takes the line's end for
// the end of the input. When another word follows, the scanner runs on
// from that word into what the buffer holds past the line, and staleEnd
// says whether it meets the end of input there (confLines).
//
// at is the index of the word the message is about. cut says the line's
// words end at an unterminated quote: PCP's scanner then gives the parser
// empty words from there on.
func parseAgentLine(toks []confToken, raw string, line int, staleEnd, cut bool) (a AgentConf, msg string, at int, last bool) {
	f := make([]string, len(toks))
	for i, t := range toks {
		f[i] = t.text
	}
	a = AgentConf{Name: f[0], Line: line}
	if len(f) < 2 || !isNumber(f[1]) {
		return a, fmt.Sprintf("expected domain number for \"%s\" agent", a.Name), 1, false
	}
	d, err := strconv.Atoi(f[1])
	if err != nil || d < 0 || d > maxDomain {
		return a, fmt.Sprintf("Illegal domain number (%s) for \"%s\" agent", f[1], a.Name), 1, false
	}
	a.Domain = uint32(d)
	kind := ""
	if len(f) > 2 {
		// PCP's keywords match in any case (strncasecmp)
		kind = asciiLower(f[2])
	}
	rest := f[min(len(f), 3):]
	switch kind {
	case "dso":
		a.Kind = AgentDSO
		for cut && len(rest) < 2 {
			rest = append(rest, "")
		}
		switch {
		case len(rest) < 1:
			return a, "expected DSO entry point", 3, false
		case len(rest) < 2:
			return a, "expected DSO pathname", 4, false
		case !filepath.IsAbs(rest[1]):
			// PCP prints the rest of the line from the path on
			rest := ""
			if len(toks) > 4 {
				rest = toks[4].rest
			}
			last := true
			if end := toks[len(toks)-1]; len(toks) > 5 && !end.quoted && end.end == len(raw) {
				// the line's last word, after the path, runs on past
				// the line's end
				last = staleEnd
			}
			return a, fmt.Sprintf("path \"%s\" to PMDA is not absolute", rest), 4, last
		case len(rest) > 2:
			return a, "too many parameters for DSO", 5, false
		}
		a.Entry, a.Path = rest[0], rest[1]
	case "pipe":
		a.Kind = AgentPipe
		if len(rest) < 1 || asciiLower(rest[0]) != "binary" {
			return a, "pipe PDU type expected (`binary')", 3, false
		}
		rest = rest[1:]
		notready := 0
		for len(rest) > 0 && asciiLower(rest[0]) == "notready" {
			a.NotReady = true
			rest = rest[1:]
			notready++
		}
		if len(rest) == 0 {
			return a, "command to create pipe agent expected.", 4 + notready, false
		}
		a.Argv = rest
	case "socket":
		a.Kind = AgentSocket
		if len(rest) > 0 {
			rest[0] = asciiLower(rest[0])
		}
		if len(rest) < 1 || (rest[0] != "inet" && rest[0] != "ipv6" && rest[0] != "unix") {
			return a, "expected socket address domain (`inet', `ipv6', or `unix')", 3, false
		}
		if len(rest) < 2 {
			return a, "expected socket port name or number", 4, false
		}
		a.Family, a.Addr = rest[0], rest[1]
		if a.Family != "unix" && !isNumber(a.Addr) {
			if _, err := net.LookupPort("tcp", a.Addr); err != nil {
				return a, fmt.Sprintf("failed to get port number for port name %s", a.Addr), 4, false
			}
		}
		a.Argv = rest[2:]
	default:
		return a, "expected `dso', `socket' or `pipe'", 2, false
	}
	return a, "", -1, false
}

// validDomain reports whether an agent line's domain is a number in
// range, so that the line gets as far as PCP's check for a clash.
func validDomain(f []string) bool {
	if len(f) < 2 || !isNumber(f[1]) {
		return false
	}
	d, err := strconv.Atoi(f[1])
	return err == nil && d >= 0 && d <= maxDomain
}

// cSpace is C's isspace in the C locale.
func cSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
