package pmcd

import "strings"

// confToken is one word of a pmcd.conf agent line as PCP's pmcd scans it.
type confToken struct {
	text string
	// rest is what PCP prints as "the token" in the one message that
	// shows it: the word and the rest of its line after it.
	rest string
	// quoted marks a word in quotes; end is where it ends in its line
	// (its closing quote, or what ended it).
	quoted bool
	end    int
}

// confTokens splits an agent line (without its newline) into words as
// PCP's pmcd does (FindNextToken): white space separates words, a '#'
// starting a word or ending an unquoted one starts a comment, a word
// starting with '"' runs to the next '"' not preceded by a backslash,
// white space included, and "\#" and "\"" stand for '#' and '"' (and do
// not end a word). unterminated reports a quote the line never closes.
func confTokens(line string) (toks []confToken, unterminated bool) {
	b := line + "\n"
	i := 0
	for {
		for b[i] != '\n' && cSpace(b[i]) {
			i++
		}
		if b[i] == '\n' || b[i] == '#' {
			return toks, false
		}
		start := i
		inQuotes := b[i] == '"'
		e := i + 1
		fix := false
		for {
			for {
				gotEnd := false
				switch c := b[e]; c {
				case '#':
					if b[e-1] == '\\' || inQuotes {
						fix = true
					} else {
						gotEnd = true
					}
				case '"':
					if b[e-1] == '\\' {
						fix = true
					} else if inQuotes {
						inQuotes = false
						gotEnd = true
					}
				default:
					gotEnd = cSpace(c)
				}
				if gotEnd {
					break
				}
				e++
			}
			if inQuotes {
				for b[e] != '\n' && cSpace(b[e]) {
					e++
				}
			}
			if !inQuotes || b[e] == '\n' {
				break
			}
		}
		if inQuotes {
			return toks, true
		}
		text := b[start:e]
		if fix {
			var sb strings.Builder
			for k := 0; k < len(text); k++ {
				if text[k] == '\\' && (b[start+k+1] == '#' || b[start+k+1] == '"') {
					continue
				}
				sb.WriteByte(text[k])
			}
			text = sb.String()
		}
		next := e
		if b[start] == '"' {
			// the word is what the quotes hold; the scan goes on
			// after the closing one
			text = text[1:]
			next++
		}
		toks = append(toks, confToken{text: text, rest: text + strings.TrimSuffix(b[e:], "\n"), quoted: b[start] == '"', end: e})
		i = next
	}
}

// cmdLine shows an agent's command as PCP's pmcd does in its agent
// table (BuildCmdLine): arguments with a blank or tab in quotes, each '"'
// after a backslash, separated by spaces.
func cmdLine(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		quote := strings.ContainsAny(a, " \t")
		if quote {
			b.WriteByte('"')
		}
		b.WriteString(strings.ReplaceAll(a, `"`, `\"`))
		if quote {
			b.WriteByte('"')
		}
	}
	return b.String()
}

// asciiLower is s with ASCII letters in lower case, as C's tolower in
// the C locale leaves the other bytes.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
