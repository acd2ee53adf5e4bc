package pmcd

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// lineBufSize is the size PCP's pmcd reads pmcd.conf in (LINEBUF_SIZE):
// its line buffer starts there and grows by as much at a time, up to ten
// times over.
const lineBufSize = 200

// confLines splits pmcd.conf into logical lines as PCP's pmcd reads them
// (GetNextLine): with fgets into a buffer of lineBufSize bytes that grows
// and is kept from one line to the next, and C strings. A NUL ends the
// text read so far, and the next read lands in its place (so what
// follows the NUL up to the end of that read is lost); a line ending in
// a backslash goes on with the next; a last line without a newline is
// given one; a line that is empty once cut at a NUL (a NUL first on a
// line) ends the file, as the end of input does; a line that would need
// more than ten buffers is PCP's "ridiculously long line" error, which
// ends the file too. Lines are returned without their newlines, and
// problem, when not empty, is the error PCP prints.
//
// stale reports, for each line, what PCP's scanner finds when it runs on
// past the line's end in its buffer, as it does after its report of a
// DSO path that is not absolute (which overwrites the line's newline): the
// bytes earlier, longer lines left there (see staleEnds).
func confLines(r io.Reader, source string) (lines []string, stale []bool, problem string, err error) {
	br := bufio.NewReader(r)
	size := lineBufSize
	atEOF := false
	// mem is PCP's line buffer as far as anything was written to it.
	var mem []byte
	put := func(off int, b []byte) {
		if need := off + len(b) + 1; need > len(mem) {
			mem = append(mem, make([]byte, need-len(mem))...)
		}
		copy(mem[off:], b)
		mem[off+len(b)] = 0
	}
	// fgets reads at most n-1 bytes, stopping after a newline.
	fgets := func(n int) ([]byte, error) {
		var out []byte
		for len(out) < n-1 {
			c, err := br.ReadByte()
			if err == io.EOF {
				atEOF = true
				break
			}
			if err != nil {
				return nil, err
			}
			out = append(out, c)
			if c == '\n' {
				break
			}
		}
		return out, nil
	}
	for !atEOF {
		var buf []byte
		toRead := size
		for {
			chunk, err := fgets(toRead)
			if err != nil {
				return lines, stale, "", err
			}
			put(len(buf), chunk)
			buf = append(buf, chunk...)
			if i := bytes.IndexByte(buf, 0); i >= 0 {
				buf = buf[:i]
			}
			if len(buf) == 0 {
				return lines, stale, "", nil
			}
			more := 0
			if buf[len(buf)-1] != '\n' {
				if atEOF {
					put(len(buf), []byte{'\n'})
					buf = append(buf, '\n')
					if len(buf) < size {
						break
					}
				}
				more = 1
			} else if len(buf) > 1 && buf[len(buf)-2] == '\\' {
				buf = append(buf[:len(buf)-2], ' ')
				more = 2
			}
			if more == 0 {
				break
			}
			if size > 10*lineBufSize {
				return lines, stale, fmt.Sprintf("%s config[line %d]: Error: ridiculously long line (%d characters)", source, len(lines)+1, size), nil
			}
			size += lineBufSize
			toRead = lineBufSize + more
			if atEOF {
				break
			}
		}
		line := bytes.TrimSuffix(buf, []byte{'\n'})
		lines = append(lines, string(line))
		stale = append(stale, staleEnds(mem, len(line)+2))
	}
	return lines, stale, "", nil
}

// staleEnds is whether PCP's scanner, in the middle of a token that ran
// over the line's end (its newline made a NUL, then fgets's NUL) into
// the buffer's bytes from off, takes the input to have ended: it goes on
// to the first white space, then from token to token, and finds the end
// of input at a NUL or a comment (whose end it looks for at the line's
// former newline, now a NUL) before a newline, which sends it on to the
// next line. Past what was ever written lies memory PCP never set; there
// it has been seen to go on to the next line, which is assumed.
func staleEnds(mem []byte, off int) bool {
	inToken := true
	for e := off; e < len(mem); e++ {
		c := mem[e]
		switch {
		case inToken && cSpace(c):
			inToken = false
			e-- // the white space is looked at again below
		case inToken:
			if c == '#' && mem[e-1] != '\\' {
				return true
			}
		case c == 0, c == '#':
			return true
		case c == '\n':
			return false
		case !cSpace(c):
			inToken = true
		}
	}
	return false
}
