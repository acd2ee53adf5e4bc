package derive

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"
)

// ereError is a pattern matchinst() cannot use, with the text glibc's
// regerror gives for the same fault.
type ereError string

func (e ereError) Error() string { return string(e) }

// posixClass reports whether name is a POSIX character class. A switch,
// not a map the package's initialisation would build.
func posixClass(name string) bool {
	switch name {
	case "alpha", "upper", "lower", "digit", "xdigit", "space", "print", "punct", "graph", "cntrl", "blank", "alnum":
		return true
	}
	return false
}

// compileERE compiles a POSIX extended regular expression, as glibc's
// regcomp(REG_EXTENDED|REG_NOSUB) reads it, with Go's regexp. The pattern
// is rewritten first where the dialects differ: a backslash inside a
// bracket expression is an ordinary character, outside one it makes the
// next character literal; an unmatched ')' is literal; a repetition of a
// repetition ("a**") applies to the repeated atom; "{,n}" is "{0,n}";
// GNU's \< and \> become \b. What RE2 cannot do is refused with glibc's
// words for the nearest fault: back references ("Invalid back
// reference") and counts above 1000 ("Invalid content of \{\}").
func compileERE(pat string) (*regexp.Regexp, error) {
	var out strings.Builder
	atom := -1        // start in out of the last atom, -1 when none
	repeated := false // the last atom already carries a repetition
	var groups []int  // starts of the open groups
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch c {
		case '\\':
			if i+1 >= len(pat) {
				return nil, ereError("Trailing backslash")
			}
			i++
			d := pat[i]
			atom, repeated = out.Len(), false
			switch {
			case d >= '1' && d <= '9':
				return nil, ereError("Invalid back reference")
			case strings.IndexByte("wWsSbB", d) >= 0:
				out.WriteByte('\\')
				out.WriteByte(d)
			case d == '<' || d == '>':
				out.WriteString(`\b`)
			default:
				out.WriteString(regexp.QuoteMeta(string(d)))
			}
		case '[':
			end, class, err := bracket(pat, i)
			if err != nil {
				return nil, err
			}
			atom, repeated = out.Len(), false
			out.WriteString(class)
			i = end
		case '(':
			groups = append(groups, out.Len())
			out.WriteByte('(')
			atom = -1
		case ')':
			if len(groups) == 0 {
				atom, repeated = out.Len(), false
				out.WriteString(`\)`)
				continue
			}
			atom, repeated = groups[len(groups)-1], false
			groups = groups[:len(groups)-1]
			out.WriteByte(')')
		case '|':
			out.WriteByte('|')
			atom = -1
		case '*', '+', '?', '{':
			op := string(c)
			if c == '{' {
				end := strings.IndexByte(pat[i:], '}')
				if end < 0 {
					return nil, ereError(`Unmatched \{`)
				}
				body := pat[i+1 : i+end]
				if !validInterval(body) {
					return nil, ereError(`Invalid content of \{\}`)
				}
				if strings.HasPrefix(body, ",") {
					body = "0" + body
				}
				op = "{" + body + "}"
				i += end
			}
			if atom < 0 {
				return nil, ereError("Invalid preceding regular expression")
			}
			if repeated {
				s := out.String()
				out.Reset()
				out.WriteString(s[:atom] + "(?:" + s[atom:] + ")")
			}
			out.WriteString(op)
			repeated = true
		default:
			atom, repeated = out.Len(), false
			out.WriteByte(c)
		}
	}
	re, err := regexp.Compile(out.String())
	if err != nil {
		return nil, ereErrorOf(err)
	}
	return re, nil
}

// validInterval checks the inside of {...}: m, m, or m,n (m may be
// empty before a comma) with counts glibc and RE2 both accept.
func validInterval(body string) bool {
	lo, hi, comma := strings.Cut(body, ",")
	num := func(s string) (int, bool) {
		if s == "" || len(s) > 4 {
			return 0, false
		}
		n := 0
		for i := 0; i < len(s); i++ {
			if !isDigit(s[i]) {
				return 0, false
			}
			n = n*10 + int(s[i]-'0')
		}
		return n, n <= 1000
	}
	l, ok := num(lo)
	if !ok && !(comma && lo == "") {
		return false
	}
	if !comma || hi == "" {
		return true
	}
	h, ok := num(hi)
	return ok && h >= l
}

// bracket translates the bracket expression starting at pat[i] and
// returns the index of its closing ']'.
func bracket(pat string, i int) (int, string, error) {
	var b strings.Builder
	b.WriteByte('[')
	j := i + 1
	if j < len(pat) && pat[j] == '^' {
		b.WriteByte('^')
		j++
	}
	if j >= len(pat) {
		return 0, "", ereError("Invalid regular expression")
	}
	unmatched := ereError("Unmatched [, [^, [:, [., or [=")
	first := true
	rangeState := 0 // 1: after a range's '-', 2: after the range's end
	for ; j < len(pat); j++ {
		c := pat[j]
		isRange := c == '-' && !first && j+1 < len(pat) && pat[j+1] != ']'
		switch {
		case rangeState == 1:
			rangeState = 2
		case isRange && rangeState == 2:
			// "a-c-e": glibc will not start a range at a range's end
			return 0, "", ereError("Invalid range end")
		case isRange:
			rangeState = 1
		default:
			rangeState = 0
		}
		switch {
		case c == ']' && !first:
			b.WriteByte(']')
			return j, b.String(), nil
		case c == '[' && j+1 < len(pat) && (pat[j+1] == ':' || pat[j+1] == '.' || pat[j+1] == '='):
			kind := pat[j+1]
			end := strings.Index(pat[j+2:], string(kind)+"]")
			if end < 0 {
				return 0, "", unmatched
			}
			body := pat[j+2 : j+2+end]
			switch kind {
			case ':':
				if !posixClass(body) {
					return 0, "", ereError("Invalid character class name")
				}
				b.WriteString("[:" + body + ":]")
			default:
				// a collating element or equivalence class of one
				// character is that character
				if len(body) != 1 {
					return 0, "", ereError("Invalid collation character")
				}
				b.WriteString(regexp.QuoteMeta(body))
			}
			j += 2 + end + 1
		case c == '\\' || c == '[' || c == ']':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
		first = false
	}
	return 0, "", unmatched
}

func ereErrorOf(err error) error {
	var se *syntax.Error
	if !errors.As(err, &se) {
		return ereError("Invalid regular expression")
	}
	switch se.Code {
	case syntax.ErrMissingParen:
		return ereError(`Unmatched ( or \(`)
	case syntax.ErrUnexpectedParen:
		return ereError(`Unmatched ) or \)`)
	case syntax.ErrMissingBracket:
		return ereError("Unmatched [, [^, [:, [., or [=")
	case syntax.ErrInvalidCharRange:
		return ereError("Invalid range end")
	case syntax.ErrInvalidRepeatOp, syntax.ErrMissingRepeatArgument:
		return ereError("Invalid preceding regular expression")
	case syntax.ErrInvalidRepeatSize:
		return ereError(`Invalid content of \{\}`)
	case syntax.ErrInvalidCharClass:
		return ereError("Invalid character class name")
	}
	return ereError("Invalid regular expression")
}
