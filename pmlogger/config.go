package pmlogger

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// State is a logging request's control: mandatory or advisory, on or
// off, or mandatory maybe (advisory requests decide).
type State struct {
	Mandatory bool
	On        bool
	Maybe     bool
}

func (s State) String() string {
	switch {
	case s.Maybe:
		return "mandatory maybe"
	case s.Mandatory && s.On:
		return "mandatory on"
	case s.Mandatory:
		return "mandatory off"
	case s.On:
		return "advisory on"
	}
	return "advisory off"
}

// MetricSpec names a metric (or a subtree of the namespace) and,
// optionally, the instances to log: each an instance name or, when
// Number is set for it, an instance identifier.
type MetricSpec struct {
	Name  string
	Insts []InstSpec
	// Line and File are where pmlogger's parser stands when it takes
	// the metric (its warnings' line): the token after the name, or the
	// closing ']' of its instances.
	Line int
	File string
}

// InstSpec is one instance in a metric's [ ] list.
type InstSpec struct {
	Name   string
	Number int32
	ByNum  bool
}

// String is the instance as the configuration gave it: its number or
// its name.
func (is InstSpec) String() string {
	if is.ByNum {
		return strconv.Itoa(int(is.Number))
	}
	return is.Name
}

// Statement is one "log ..." clause of a configuration.
type Statement struct {
	State State
	// Interval between samples; zero with Once false means the request
	// turns logging off.
	Interval time.Duration
	Once     bool
	Metrics  []MetricSpec
	Line     int
	File     string // the file holding Line, after pmcpp's line markers
}

// AccessRule is one line of the [access] section.
type AccessRule struct {
	Allow bool
	Hosts []string
	// HostLines holds the line of each of Hosts.
	HostLines []int
	Ops       []string // all, enquire, advisory, mandatory
	Except    bool
	Line      int
}

// Config is a parsed pmlogger configuration.
type Config struct {
	Statements []Statement
	Access     []AccessRule
}

// ConfigError is a mistake in a configuration, reported as pmlogger
// reports it.
type ConfigError struct {
	File string
	Line int
	Msg  string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("Specification error in configuration file (%s)\n[line %d] %s", e.File, e.Line, e.Msg)
}

// maxDelta is PMLC_MAX_DELTA in milliseconds.
const maxDelta = 0x0fffffff

// ParseConfig parses pmlogger's configuration language: "log" clauses
// (mandatory on/off/maybe, advisory on/off; intervals as "[every] N
// unit", "once" or "default", which is defaultInterval), metric lists
// with optional instance lists, "#" comments and an optional [access]
// section. Errors name the file and line as pmlogger does.
func ParseConfig(src, file string, defaultInterval time.Duration) (*Config, error) {
	p := &parser{toks: scan(src, file), file: file, def: defaultInterval}
	return p.config()
}

type token struct {
	text   string
	quoted bool
	line   int
	file   string // as the last line marker named it
	eof    bool   // the end of input
	err    string // the lexer's complaint: an unexpected character here
}

type parser struct {
	toks     []token
	pos      int
	file     string
	def      time.Duration
	inBraces bool // pmlogger's lexer gives keywords as names only inside { }
}

// keywords are the words pmlogger's lexer reserves outside braces.
var keywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`millisecond milliseconds mandatory advisory disallow minute minutes
		second seconds default enquire access except allow every maybe hour hours msec msecs min mins
		once sec secs log all off on`) {
		keywords[k] = true
	}
}

// isName reports whether t is a NAME token where the parser stands.
func (p *parser) isName(t *token) bool {
	return !t.quoted && validName(t.text) && (p.inBraces || !keywords[t.text])
}

// peek is the token where the parser stands, nil at the end of input
// or at an unexpected character.
func (p *parser) peek() *token {
	if p.pos < len(p.toks)-1 {
		return &p.toks[p.pos]
	}
	return nil
}

// at is the token where the parser stands, the end of input included:
// what pmlogger's parser holds as its lookahead.
func (p *parser) at() *token { return &p.toks[min(p.pos, len(p.toks)-1)] }

func (p *parser) next() *token {
	t := p.peek()
	if t != nil {
		p.pos++
	}
	return t
}

// errorf is a syntax error at the lookahead, on the line the lexer has
// reached; when the lookahead is an unexpected character, the lexer's
// complaint comes first and is the one reported.
func (p *parser) errorf(format string, args ...any) error {
	t := p.at()
	if t.err != "" {
		return &ConfigError{File: t.file, Line: t.line, Msg: t.err}
	}
	return errAt(t, format, args...)
}

// errAt is an error reported while the lexer stands at t.
func errAt(t *token, format string, args ...any) error {
	return &ConfigError{File: t.file, Line: t.line, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) is(word string) bool {
	t := p.peek()
	return t != nil && !t.quoted && t.text == word
}

// config parses the whole configuration. After an error the Config
// still holds what pmlogger's grammar had acted on before it (the
// metrics read so far, statement by statement, and the access rules
// completed), which pmlogger has already looked up and warned about.
func (p *parser) config() (*Config, error) {
	cfg := &Config{}
	for p.peek() != nil {
		if p.is("[") {
			return cfg, p.access(cfg)
		}
		st, err := p.statement()
		if len(st.Metrics) > 0 {
			cfg.Statements = append(cfg.Statements, st)
		}
		if err != nil {
			return cfg, err
		}
	}
	if p.at().err != "" {
		return cfg, p.errorf("syntax error")
	}
	return cfg, nil
}

func (p *parser) statement() (Statement, error) {
	var st Statement
	st.Line, st.File = p.peek().line, p.peek().file
	if p.is("log") {
		p.next()
	}
	switch {
	case p.is("mandatory"):
		p.next()
		if p.is("maybe") {
			p.next()
			st.State = State{Maybe: true}
			return p.metrics(st)
		}
		st.State.Mandatory = true
	case p.is("advisory"):
		p.next()
	}
	switch {
	case p.is("on"):
		p.next()
		st.State.On = true
		if err := p.frequency(&st); err != nil {
			return st, err
		}
	case p.is("off"):
		p.next()
	default:
		return st, p.errorf("syntax error")
	}
	return p.metrics(st)
}

func (p *parser) frequency(st *Statement) error {
	switch {
	case p.is("once"):
		p.next()
		st.Once = true
		return nil
	case p.is("default"):
		p.next()
		st.Interval = p.def
		return nil
	case p.is("every"):
		p.next()
	}
	t := p.next()
	if t == nil {
		return p.errorf("syntax error")
	}
	if t.quoted {
		p.pos--
		return p.errorf("syntax error")
	}
	n, err := strconv.ParseInt(t.text, 10, 64)
	if err != nil {
		p.pos--
		return p.errorf("syntax error")
	}
	u := p.next()
	if u == nil {
		return p.errorf("syntax error")
	}
	var unit int64
	switch u.text {
	case "msec", "msecs", "millisecond", "milliseconds":
		unit = 1
	case "sec", "secs", "second", "seconds":
		unit = 1000
	case "min", "mins", "minute", "minutes":
		unit = 60000
	case "hour", "hours":
		unit = 3600000
	default:
		p.pos--
		return p.errorf("syntax error")
	}
	ms := n * unit
	if ms > maxDelta || n > maxDelta {
		return errAt(u, "Logging delta (%d msec) cannot be bigger than %d msec", ms, maxDelta)
	}
	st.Interval = time.Duration(ms) * time.Millisecond
	return nil
}

func (p *parser) metrics(st Statement) (Statement, error) {
	if !p.is("{") {
		p.inBraces = false
		m, err := p.metric()
		if err != nil {
			return st, err
		}
		st.Metrics = append(st.Metrics, m)
		return st, nil
	}
	p.next()
	p.inBraces = true
	defer func() { p.inBraces = false }()
	for {
		if p.is("}") {
			p.inBraces = false
			p.next()
			if len(st.Metrics) == 0 {
				p.pos--
				return st, p.errorf("syntax error")
			}
			return st, nil
		}
		if p.is(",") && len(st.Metrics) > 0 {
			p.next()
		}
		m, err := p.metric()
		if err != nil {
			return st, err
		}
		st.Metrics = append(st.Metrics, m)
	}
}

func validName(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func (p *parser) metric() (MetricSpec, error) {
	t := p.peek()
	if t == nil || !p.isName(t) {
		return MetricSpec{}, p.errorf("syntax error")
	}
	p.next()
	m := MetricSpec{Name: t.text}
	if !p.is("[") {
		// Without instances pmlogger needs the next token to see
		// that none follow: the metric is taken at that token's line,
		// and not at all when that token is an unexpected character.
		la := p.at()
		if la.err != "" {
			return m, p.errorf("syntax error")
		}
		m.Line, m.File = la.line, la.file
		return m, nil
	}
	p.next()
	for {
		t := p.next()
		if t == nil {
			return m, p.errorf("syntax error")
		}
		if !t.quoted && t.text == "]" {
			if len(m.Insts) == 0 {
				p.pos--
				return m, p.errorf("syntax error")
			}
			m.Line, m.File = t.line, t.file
			return m, nil
		}
		if !t.quoted && t.text == "," && len(m.Insts) > 0 {
			continue
		}
		if !t.quoted && strings.IndexByte("[{}:;,", t.text[0]) >= 0 {
			p.pos--
			return m, p.errorf("syntax error")
		}
		n, err := strconv.ParseInt(t.text, 10, 32)
		switch {
		case t.quoted || p.isName(t):
			m.Insts = append(m.Insts, InstSpec{Name: t.text})
		case err == nil && t.text[0] != '-' && t.text[0] != '+':
			m.Insts = append(m.Insts, InstSpec{Number: int32(n), ByNum: true})
		default:
			p.pos--
			return m, p.errorf("syntax error")
		}
	}
}

func (p *parser) access(cfg *Config) error {
	p.next()
	if !p.is("access") {
		return p.errorf("syntax error")
	}
	p.next()
	if !p.is("]") {
		return p.errorf("syntax error")
	}
	p.next()
	for p.peek() != nil {
		r := AccessRule{Line: p.peek().line}
		switch {
		case p.is("allow"):
			r.Allow = true
		case p.is("disallow"):
		default:
			return p.errorf("syntax error")
		}
		p.next()
		for {
			t := p.next()
			// A host is a name, host name, address or URL: not a
			// string, a bare number or a keyword.
			if t == nil {
				return p.errorf("syntax error")
			}
			if t.quoted || t.isPunct() || keywords[t.text] || strings.Trim(t.text, "0123456789") == "" {
				p.pos--
				return p.errorf("syntax error")
			}
			r.Hosts = append(r.Hosts, t.text)
			r.HostLines = append(r.HostLines, t.line)
			if p.is(",") {
				p.next()
				continue
			}
			break
		}
		if !p.is(":") {
			return p.errorf("syntax error")
		}
		p.next()
		// operation: "all", "all except" list, or a list of
		// advisory, mandatory and enquire separated by commas.
		if p.is("all") {
			p.next()
			r.Ops = append(r.Ops, "all")
			if p.is("except") {
				p.next()
				r.Except = true
				if err := p.accessOps(&r); err != nil {
					return err
				}
			}
		} else if err := p.accessOps(&r); err != nil {
			return err
		}
		if !p.is(";") {
			return p.errorf("syntax error")
		}
		p.next()
		cfg.Access = append(cfg.Access, r)
	}
	if len(cfg.Access) == 0 || p.at().err != "" {
		// The section needs a statement, and the lexer may have
		// stopped at a character it does not know.
		return p.errorf("syntax error")
	}
	return nil
}

// accessOps reads a list of operations of an [access] statement.
func (p *parser) accessOps(r *AccessRule) error {
	for {
		t := p.next()
		if t == nil {
			return p.errorf("syntax error")
		}
		switch {
		case !t.quoted && (t.text == "enquire" || t.text == "advisory" || t.text == "mandatory"):
			r.Ops = append(r.Ops, t.text)
		default:
			p.pos--
			return p.errorf("syntax error")
		}
		if !p.is(",") {
			return nil
		}
		p.next()
	}
}

// lineMarker parses a line marker of pmcpp's, `# N "file"`, at the start
// of s.
func lineMarker(s string) (int, string, bool) {
	if !strings.HasPrefix(s, "# ") {
		return 0, "", false
	}
	i := 2
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 2 || i+1 >= len(s) || s[i] != ' ' || s[i+1] != '"' {
		return 0, "", false
	}
	end := strings.IndexAny(s[i+2:], "\"\n")
	if end < 0 || s[i+2+end] != '"' {
		return 0, "", false
	}
	n, err := strconv.Atoi(s[2:i])
	if err != nil {
		return 0, "", false
	}
	return n, s[i+2 : i+2+end], true
}
