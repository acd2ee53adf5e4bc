package pmlogger

import (
	"regexp"
	"strings"
)

// lexRules are the patterns of pmlogger's lexer (its lex.l) that make
// tokens, in the lexer's order: at each place the longest match wins
// and, between matches of one length, the earlier rule, as with flex.
// The keywords are NAMEs here (the parser tells them apart), as are
// HOSTNAMEs, which add '-' after the first letter. Note that lex.l's
// "[A-Za-z0-9_.-/]" holds the range '.'..'/', not a '-'.
var lexRules = func() []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, r := range []string{
		`[\[\],{}:;]`,
		`[A-Za-z][A-Za-z0-9_.]*`,
		`[A-Za-z][A-Za-z0-9_.-]*`,
		`"[^"\n][^"\n]*"`,
		`[0-9]+`,
		`[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+`,
		`[0-9]+\.[0-9]+\.[0-9]+\.\*`,
		`[0-9]+\.[0-9]+\.\*`,
		`[0-9]+\.\*`,
		`\.\*`,
		`([A-Fa-f0-9]+:)*[A-Fa-f0-9]+`,
		`::`,
		`::([A-Fa-f0-9]+:)*[A-Fa-f0-9]+`,
		`([A-Fa-f0-9]+:)+:([A-Fa-f0-9]+:)*[A-Fa-f0-9]+`,
		`([A-Fa-f0-9]+:)+:`,
		`([A-Fa-f0-9]+:)+\*`,
		`::([A-Fa-f0-9]+:)*\*`,
		`([A-Fa-f0-9]+:)+:([A-Fa-f0-9]+:)*\*`,
		`:\*`,
		`\*`,
		`unix:[A-Za-z0-9_./]*\*`,
		`unix:[A-Za-z0-9_./]*`,
		`local:[A-Za-z0-9_./]*\*`,
		`local:[A-Za-z0-9_./]*`,
	} {
		re := regexp.MustCompile(`^(?:` + r + `)`)
		re.Longest()
		out = append(out, re)
	}
	return out
}()

// lexMatch is the length of the token the lexer makes at the start of
// s, 0 for none (an unexpected character).
func lexMatch(s string) int {
	best := 0
	for _, re := range lexRules {
		if loc := re.FindStringIndex(s); loc != nil && loc[1] > best {
			best = loc[1]
		}
	}
	return best
}

// scan splits a configuration into tokens as pmlogger's lexer does.
// An unexpected character ends the tokens with an error token: the
// lexer complains only when the parser asks for that token, so what
// the parser did with the tokens before it stands. The last token is
// always the end of input (or that error), with the line the lexer has
// reached there.
func scan(src, file string) []token {
	var out []token
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#':
			if i == 0 || src[i-1] == '\n' {
				// pmcpp's line markers say where the next line came from.
				if n, name, ok := lineMarker(src[i:]); ok {
					line, file = n-1, name
				}
			}
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			n := lexMatch(src[i:])
			if n == 0 {
				// The byte as C prints it with %c, not as a rune.
				msg := "Unexpected character '" + string([]byte{c}) + "'"
				return append(out, token{err: msg, line: line, file: file})
			}
			t := token{text: src[i : i+n], line: line, file: file}
			if c == '"' {
				t.text, t.quoted = t.text[1:n-1], true
			}
			out = append(out, t)
			i += n
		}
	}
	return append(out, token{eof: true, line: line, file: file})
}

// isPunct reports whether t is one of the lexer's one-character tokens.
func (t *token) isPunct() bool {
	return !t.quoted && len(t.text) == 1 && strings.IndexByte("[],{}:;", t.text[0]) >= 0
}
