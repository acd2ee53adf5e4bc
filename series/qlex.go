package series

// The tokens of libpcp_web's query language, read as its lexer reads
// them: names run over letters, digits and _ . * % \, a function name is
// one only when '(' follows it at once, strings are double-quoted with no
// escapes, an integer followed by letters is a range ("10min"), and a few
// names are keywords anywhere (so a metric or label cannot be called
// "count" or "start").

type tokKind int

const (
	tEOS tokKind = iota
	tError
	tName
	tInteger
	tDouble
	tString
	tRange
	tFunc
	tKeyword // interval, timezone, start, finish, samples, offset, align, type, semantics, units
	tPlus
	tMinus
	tStar
	tSlash
	tLParen
	tRParen
	tLBrace
	tRBrace
	tLSquare
	tRSquare
	tComma
	tColon
	tAssign
	tLT
	tLEQ
	tEQ
	tGEQ
	tGT
	tNEQ
	tGlob
	tREQ
	tRNE
	tAnd
	tOr
)

type token struct {
	kind tokKind
	text string // the name, number, string's content, function or keyword
	pos  int    // where the token starts (libpcp_web's yy_lexicon)
}

// funcNames are the functions the lexer knows; "count" among them has no
// rule in the grammar, so count(...) is a syntax error as in PCP.
var funcNames = map[string]bool{
	"avg": true, "avg_inst": true, "avg_sample": true, "count": true,
	"max": true, "max_inst": true, "max_sample": true,
	"min": true, "min_inst": true, "min_sample": true,
	"sum": true, "sum_inst": true, "sum_sample": true,
	"stdev_inst": true, "stdev_sample": true,
	"topk_inst": true, "topk_sample": true,
	"nth_percentile_inst": true, "nth_percentile_sample": true,
	"rate": true, "abs": true, "floor": true, "log": true, "sqrt": true,
	"round": true, "rescale": true,
}

// keywords maps the keyword names to the one each stands for.
var keywords = map[string]string{
	"type": "type", "semantics": "semantics", "units": "units",
	"interval": "interval", "delta": "interval",
	"timezone": "timezone", "tz": "timezone",
	"start": "start", "begin": "start",
	"finish": "finish", "end": "finish",
	"samples": "samples", "count": "samples",
	"offset": "offset", "from": "offset",
	"align": "align", "alignment": "align",
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool  { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isCSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

type lexer struct {
	s string
	i int
}

// next reads one token. At the end of the input the token's position is
// the last byte's, as libpcp_web's lexer leaves it (so a caret under an
// unexpected end points at the last character).
func (l *lexer) next() token {
	for l.i < len(l.s) && isCSpace(l.s[l.i]) {
		l.i++
	}
	if l.i >= len(l.s) {
		return token{kind: tEOS, pos: max(0, len(l.s)-1)}
	}
	start := l.i
	c := l.s[l.i]
	l.i++
	tok := func(k tokKind) token { return token{kind: k, text: l.s[start:l.i], pos: start} }
	switch {
	case isDigit(c):
		for l.i < len(l.s) && isDigit(l.s[l.i]) {
			l.i++
		}
		if l.i < len(l.s) && l.s[l.i] == '.' {
			l.i++
			return l.double(start)
		}
		if l.i < len(l.s) && isAlpha(l.s[l.i]) {
			for l.i < len(l.s) && isAlpha(l.s[l.i]) {
				l.i++
			}
			return tok(tRange)
		}
		if !fitsU32(l.s[start:l.i]) {
			return token{kind: tError, text: "Constant value too large", pos: start}
		}
		return tok(tInteger)
	case c == '.':
		return l.double(start)
	case isAlpha(c):
		for l.i < len(l.s) {
			d := l.s[l.i]
			if isAlpha(d) || isDigit(d) || d == '_' || d == '.' || d == '*' || d == '%' || d == '\\' {
				l.i++
				continue
			}
			break
		}
		name := l.s[start:l.i]
		if l.i < len(l.s) && l.s[l.i] == '(' && funcNames[name] {
			return token{kind: tFunc, text: name, pos: start}
		}
		if k, ok := keywords[name]; ok {
			return token{kind: tKeyword, text: k, pos: start}
		}
		return tok(tName)
	case c == '"':
		end := -1
		for j := l.i; j < len(l.s); j++ {
			if l.s[j] == '"' {
				end = j
				break
			}
		}
		if end < 0 {
			// libpcp_web's lexer reads on past the end without bound
			// here; the string simply has no end.
			l.i = len(l.s)
			return token{kind: tError, text: "unterminated string", pos: start}
		}
		l.i = end + 1
		return token{kind: tString, text: l.s[start+1 : end], pos: start}
	}
	two := func(second byte, k2, k1 tokKind, oneOK bool) token {
		if l.i < len(l.s) && l.s[l.i] == second {
			l.i++
			return tok(k2)
		}
		if !oneOK {
			return token{kind: tError, text: "Illegal character", pos: start}
		}
		return tok(k1)
	}
	switch c {
	case '+':
		return tok(tPlus)
	case '-':
		return tok(tMinus)
	case '*':
		return tok(tStar)
	case '/':
		return tok(tSlash)
	case '(':
		return tok(tLParen)
	case ')':
		return tok(tRParen)
	case '{':
		return tok(tLBrace)
	case '}':
		return tok(tRBrace)
	case '[':
		return tok(tLSquare)
	case ']':
		return tok(tRSquare)
	case ':':
		return tok(tColon)
	case ',':
		return tok(tComma)
	case '<':
		return two('=', tLEQ, tLT, true)
	case '>':
		return two('=', tGEQ, tGT, true)
	case '~':
		return two('~', tGlob, tError, false)
	case '&':
		return two('&', tAnd, tError, false)
	case '|':
		return two('|', tOr, tError, false)
	case '=':
		if l.i < len(l.s) && l.s[l.i] == '~' {
			l.i++
			return tok(tREQ)
		}
		return two('=', tEQ, tAssign, true)
	case '!':
		if l.i < len(l.s) && l.s[l.i] == '~' {
			l.i++
			return tok(tRNE)
		}
		return two('=', tNEQ, tError, false)
	}
	return token{kind: tError, text: "Illegal character", pos: start}
}

func (l *lexer) double(start int) token {
	for l.i < len(l.s) && isDigit(l.s[l.i]) {
		l.i++
	}
	return token{kind: tDouble, text: l.s[start:l.i], pos: start}
}

func fitsU32(digits string) bool {
	var v uint64
	for i := 0; i < len(digits); i++ {
		v = v*10 + uint64(digits[i]-'0')
		if v > 0xffffffff {
			return false
		}
	}
	return true
}
