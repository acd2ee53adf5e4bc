package pmns

import (
	"bytes"
	"fmt"
)

// macroTable is pmcpp's macro list. pmcpp marks an #undef'd macro by giving
// it an empty name, and a taken #else looks up (and then defines) the empty
// name; empty counts those entries so the same files fail as with pmcpp.
type macroTable struct {
	values map[string]string
	empty  int
}

func (m *macroTable) defined(name string) bool {
	if name == "" {
		return m.empty > 0
	}
	_, ok := m.values[name]
	return ok
}

func (m *macroTable) define(name, value string) {
	if name == "" {
		m.empty++
		return
	}
	if m.values == nil {
		m.values = make(map[string]string)
	}
	m.values[name] = value
}

func (m *macroTable) undef(name string) {
	if _, ok := m.values[name]; ok && name != "" {
		delete(m.values, name)
		m.empty++
	}
}

type directiveOp int

const (
	opDefine directiveOp = iota
	opUndef
	opIfdef
	opIfndef
	opEndif
	opElse
)

// pmcpp recognizes a directive by prefix, so #defineX 1 defines X.
var directives = []struct {
	word string
	op   directiveOp
}{
	{"define", opDefine}, {"undef", opUndef}, {"ifdef", opIfdef},
	{"ifndef", opIfndef}, {"endif", opEndif}, {"else", opElse},
}

// Conditional state: pmcpp has one level, no nesting.
const (
	condNone = iota
	condFalse
	condTrue
)

// directive handles a control line other than #include and #shell. known
// is false for a line pmcpp passes through as text; skip says whether the
// lines that follow are dropped.
func (p *preprocessor) directive(line []byte) (skip, known bool, err error) {
	op := directiveOp(-1)
	var rest []byte
	for _, d := range directives {
		if bytes.HasPrefix(line[1:], []byte(d.word)) {
			op, rest = d.op, line[1+len(d.word):]
			break
		}
	}
	if op < 0 {
		return false, false, nil
	}
	name, value, err := p.directiveArgs(op, rest)
	if err != nil {
		return false, true, err
	}

	switch op {
	case opEndif:
		if p.cond == condNone {
			return false, true, p.fail("No matching #ifdef or #ifndef for #endif")
		}
		p.cond = condNone
		return false, true, nil
	case opElse:
		if p.cond == condNone {
			return false, true, p.fail("No matching #ifdef or #ifndef for #else")
		}
		if p.cond == condTrue {
			p.cond = condFalse
		} else {
			p.cond = condTrue
		}
	case opIfdef, opIfndef:
		if p.cond != condNone {
			return false, true, p.fail("Nested #ifdef or #ifndef")
		}
	}
	if p.cond == condFalse {
		return true, true, nil
	}

	if p.macros.defined(name) {
		switch op {
		case opIfdef:
			p.cond = condTrue
			return false, true, nil
		case opIfndef:
			p.cond = condFalse
			return true, true, nil
		case opUndef:
			p.macros.undef(name)
			return false, true, nil
		}
		// #define, or a taken #else after an earlier one (pmcpp's quirk).
		return false, true, p.fail("Macro redefinition")
	}
	switch op {
	case opIfdef:
		p.cond, p.condLine = condFalse, p.cur.line
		return true, true, nil
	case opIfndef:
		p.cond, p.condLine = condTrue, p.cur.line
		return false, true, nil
	case opUndef:
		return false, true, nil
	}
	p.macros.define(name, value)
	return false, true, nil
}

// directiveArgs checks the syntax of a directive's arguments, which pmcpp
// does even inside a false #ifdef.
func (p *preprocessor) directiveArgs(op directiveOp, rest []byte) (name, value string, err error) {
	at := func(i int) byte { // pmcpp's buffer ends in a NUL
		if i < len(rest) {
			return rest[i]
		}
		return 0
	}
	i := skipBlanks(rest, 0)
	if op != opEndif && op != opElse {
		if c := at(i); c == '\n' || c == 0 {
			return "", "", p.fail("Missing macro name")
		}
		start := i
		for ; at(i) != 0 && !isBlank(at(i)); i++ {
			c := at(i)
			if isAlpha(c) || c == '_' || i > start && isDigit(c) {
				continue
			}
			break
		}
		if !isSpace(at(i)) {
			return "", "", p.fail("Illegal character in macro name")
		}
		name = string(rest[start:i])
		if op == opDefine && at(i) != '\n' {
			i = skipBlanks(rest, i)
			var quote byte
			if c := at(i); c == '\'' || c == '"' {
				quote = c
				i++
			}
			start := i
			for at(i) != 0 && (quote == 0 && !isSpace(at(i)) || quote != 0 && at(i) != quote) {
				i++
			}
			if quote != 0 && at(i) != quote {
				return "", "", p.fail("Unterminated value string in #define")
			}
			value = string(rest[start:i])
			if quote != 0 {
				i++
			}
		}
	}
	i = skipBlanks(rest, i)
	if c := at(i); c != '\n' && c != '\r' && c != 0 {
		return "", "", p.fail("Unexpected extra text in a control line")
	}
	return name, value, nil
}

func skipBlanks(b []byte, i int) int {
	for i < len(b) && isBlank(b[i]) {
		i++
	}
	return i
}

// quotedArg parses the argument of #include or #shell: an opening quote
// from opens, the text, and the matching close, then only white space.
func (p *preprocessor) quotedArg(rest []byte, word, opens string, missingOpen string) (string, error) {
	i := skipBlanks(rest, 0)
	if i == len(rest) || bytes.IndexByte([]byte(opens), rest[i]) < 0 {
		return "", p.fail(missingOpen)
	}
	closer := rest[i]
	if closer == '<' {
		closer = '>'
	}
	i++
	start := i
	for i < len(rest) && rest[i] != '\n' && rest[i] != closer {
		i++
	}
	if i == len(rest) || rest[i] != closer {
		what := "file name"
		if word == "shell" {
			what = "command"
		}
		return "", p.fail(fmt.Sprintf("Expected %c after %s", closer, what))
	}
	if len(p.stack) == maxNesting {
		other := "shell"
		if word == "shell" {
			other = "include"
		}
		return "", p.fail(fmt.Sprintf("#%s and/or #%s nesting too deep", word, other))
	}
	for j := i + 1; j < len(rest); j++ {
		if !isSpace(rest[j]) {
			return "", p.fail(fmt.Sprintf("Unexpected extra text in #%s line", word))
		}
	}
	return string(rest[start:i]), nil
}
