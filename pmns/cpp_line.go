package pmns

import (
	"bufio"
	"bytes"
)

// readCPPLine returns the next line of a pmcpp input, always ending in
// '\n'. Like pmcpp, it drops a last line that has no newline, and treats a
// NUL as the end of its line buffer: what follows the NUL on that line is
// lost and the next line is joined on. (pmcpp reads in chunks of its buffer
// size, so on lines longer than that which also hold a NUL it may keep a
// little more; such files are garbage to both.)
func readCPPLine(r *bufio.Reader) ([]byte, bool) {
	var line []byte
	for {
		chunk, err := r.ReadBytes('\n')
		if err != nil {
			return nil, false
		}
		if i := bytes.IndexByte(chunk, 0); i >= 0 {
			line = append(line, chunk[:i]...)
			continue
		}
		return append(line, chunk...), true
	}
}

// stripComments blanks C comments in line, which may open or close on
// earlier or later lines; p.commentLine remembers where an open one began.
// A line that lost any text also loses its trailing white space.
func (p *preprocessor) stripComments(line []byte) []byte {
	blanked := false
	end := len(line) - 1 // the newline
	for i := 0; i < end; i++ {
		switch {
		case p.commentLine != 0:
			blanked = true
			if line[i] == '*' && line[i+1] == '/' {
				p.commentLine = 0
				line[i] = ' '
				i++
			}
			line[i] = ' '
		case line[i] == '/' && line[i+1] == '*':
			p.commentLine = p.cur.line
			blanked = true
			line[i] = ' '
			i++
			line[i] = ' '
		}
	}
	if !blanked {
		return line
	}
	for end > 0 && isSpace(line[end-1]) {
		end--
	}
	line = line[:end]
	return append(line, '\n')
}

// substitute replaces every word that names a macro by its value, once:
// values are not rescanned. A word is pmcpp's: a letter or underscore, then
// letters, digits and underscores, wherever it starts (so 1abc holds abc).
func (m *macroTable) substitute(line []byte) []byte {
	var out []byte // nil until the first substitution
	for i := 0; i < len(line); {
		c := line[i]
		if !isAlpha(c) && c != '_' {
			if out != nil {
				out = append(out, c)
			}
			i++
			continue
		}
		j := i + 1
		for j < len(line) && (isAlnum(line[j]) || line[j] == '_') {
			j++
		}
		if v, ok := m.values[string(line[i:j])]; ok {
			if out == nil {
				out = append(make([]byte, 0, len(line)+len(v)), line[:i]...)
			}
			out = append(out, v...)
		} else if out != nil {
			out = append(out, line[i:j]...)
		}
		i = j
	}
	if out == nil {
		return line
	}
	return out
}
