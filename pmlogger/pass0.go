package pmlogger

// Pass0Names are the metric names pmlogger's first pass over its
// (preprocessed) configuration picks out before parsing, to look them
// up together: names inside braces (a letter, then letters, digits, '_'
// and '.'), outside instance lists, quoted instance names and '#'
// comments, each once in order of first appearance. It is a character
// scan, not the grammar: names outside braces are not seen, and a name
// the input ends in is not taken.
func Pass0Names(text []byte) []string {
	const (
		initial = iota
		initialComment
		list
		listComment
		name
		inst
		quoted
	)
	var names []string
	seen := map[string]bool{}
	state, start := initial, 0
	for i, c := range text {
		switch state {
		case initial:
			switch c {
			case '#':
				state = initialComment
			case '{':
				state = list
			}
		case initialComment:
			if c == '\n' {
				state = initial
			}
		case list:
			switch {
			case c == '#':
				state = listComment
			case c == '}':
				state = initial
			case isAlpha(c):
				state, start = name, i
			case c == '[':
				state = inst
			}
		case listComment:
			if c == '\n' {
				state = list
			}
		case name:
			if isAlpha(c) || c >= '0' && c <= '9' || c == '_' || c == '.' {
				continue
			}
			if n := string(text[start:i]); !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
			state = list
			if c == '[' {
				state = inst
			}
		case inst:
			switch c {
			case ']':
				state = list
			case '"':
				state = quoted
			}
		case quoted:
			if c == '"' {
				state = inst
			}
		}
	}
	return names
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
