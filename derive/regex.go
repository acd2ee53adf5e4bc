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

// compileERE compiles a POSIX extended regular expression with Go's
// regexp. The two dialects differ in escapes and bracket expressions, so
// the pattern is rewritten first: inside brackets a backslash is an
// ordinary character in POSIX, and outside them a backslash before an
// ordinary character means that character. GNU's \< and \> become \b.
// Back references, which RE2 cannot run, are refused.
func compileERE(pat string) (*regexp.Regexp, error) {
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch c {
		case '\\':
			if i+1 >= len(pat) {
				return nil, ereError("Trailing backslash")
			}
			i++
			d := pat[i]
			switch {
			case d >= '1' && d <= '9':
				return nil, ereError("Invalid back reference")
			case strings.IndexByte("wWsSbB", d) >= 0:
				b.WriteByte('\\')
				b.WriteByte(d)
			case d == '<' || d == '>':
				b.WriteString(`\b`)
			default:
				b.WriteString(regexp.QuoteMeta(string(d)))
			}
		case '[':
			end, class, ok := bracket(pat, i)
			if !ok {
				return nil, ereError("Unmatched [, [^, [:, [., or [=")
			}
			b.WriteString(class)
			i = end
		default:
			b.WriteByte(c)
		}
	}
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, ereErrorOf(err)
	}
	return re, nil
}

// bracket translates the bracket expression starting at pat[i] and
// returns the index of its closing ']'.
func bracket(pat string, i int) (int, string, bool) {
	var b strings.Builder
	b.WriteByte('[')
	j := i + 1
	if j < len(pat) && pat[j] == '^' {
		b.WriteByte('^')
		j++
	}
	first := true
	for ; j < len(pat); j++ {
		c := pat[j]
		switch {
		case c == ']' && !first:
			b.WriteByte(']')
			return j, b.String(), true
		case c == '[' && j+1 < len(pat) && (pat[j+1] == ':' || pat[j+1] == '.' || pat[j+1] == '='):
			kind := pat[j+1]
			end := strings.Index(pat[j+2:], string(kind)+"]")
			if end < 0 {
				return 0, "", false
			}
			body := pat[j+2 : j+2+end]
			switch kind {
			case ':':
				b.WriteString("[:" + body + ":]")
			default:
				// a collating element or equivalence class of one
				// character is that character
				if len(body) != 1 {
					return 0, "", false
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
	return 0, "", false
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
