package getdate

// kind is the class of a token.
type kind int

const (
	kEnd      kind = iota
	kChar          // any other byte, in val
	kUnsigned      // a number without a sign, or an ordinal word
	kSigned        // a number with a sign
	kMeridian      // am, pm (val 0 or 1)
	kMonth         // a month name (val 1..12)
	kWeekday       // a day name (val 0..6, Sunday first)
	kZone          // a standard-time zone (val: minutes west)
	kDayZone       // a summer-time zone (val: minutes west of its standard time)
	kDST           // "dst" after a zone
	kMinutes       // a unit counted in minutes (val minutes per unit)
	kSeconds       // "second", "sec"
	kMonths        // "month", "year" (val months per unit)
	kDayAlign      // today, yesterday, tomorrow: minutes, and the date at midnight
	kAgo           // "ago"
	kWord          // any other word
)

type token struct {
	kind kind
	val  int64
}

// lexer splits a date into tokens the way PCP's getdate does: runs of
// digits with an optional sign, words of letters and dots looked up in
// the tables, parenthesised comments skipped, and every other byte a
// token of its own. A byte with the high bit set ends the input, as a
// negative char does for the parser PCP's grammar is built with.
type lexer struct {
	s string
	i int
}

func isSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

func (l *lexer) peek() byte {
	if l.i < len(l.s) {
		return l.s[l.i]
	}
	return 0
}

func (l *lexer) next() token {
	for {
		for isSpace(l.peek()) {
			l.i++
		}
		c := l.peek()
		switch {
		case c == 0 || c >= 0x80:
			return token{kind: kEnd}
		case c == '+' || c == '-':
			l.i++
			if !isDigit(l.peek()) {
				continue // a sign without digits is dropped
			}
			n := l.digits()
			if c == '-' {
				n = -n
			}
			return token{kind: kSigned, val: n}
		case isDigit(c):
			return token{kind: kUnsigned, val: l.digits()}
		case isAlpha(c):
			start := l.i
			for l.i < len(l.s) && (isAlpha(l.s[l.i]) || l.s[l.i] == '.') {
				l.i++
			}
			w := l.s[start:l.i]
			if len(w) > maxWord {
				w = w[:maxWord]
			}
			return lookup(w)
		case c == '(':
			depth := 0
			for {
				c := l.peek()
				if c == 0 {
					return token{kind: kEnd}
				}
				l.i++
				if c == '(' {
					depth++
				} else if c == ')' {
					depth--
				}
				if depth <= 0 {
					break
				}
			}
		default:
			l.i++
			return token{kind: kChar, val: int64(c)}
		}
	}
}

// digits reads a run of digits; like the C original it does not guard
// against overflow, and the value wraps.
func (l *lexer) digits() int64 {
	var n int64
	for isDigit(l.peek()) {
		n = 10*n + int64(l.s[l.i]-'0')
		l.i++
	}
	return n
}
