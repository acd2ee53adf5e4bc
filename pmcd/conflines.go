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
func confLines(r io.Reader, source string) (lines []string, problem string, err error) {
	br := bufio.NewReader(r)
	size := lineBufSize
	atEOF := false
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
				return nil, "", err
			}
			buf = append(buf, chunk...)
			if i := bytes.IndexByte(buf, 0); i >= 0 {
				buf = buf[:i]
			}
			if len(buf) == 0 {
				return lines, "", nil
			}
			more := 0
			if buf[len(buf)-1] != '\n' {
				if atEOF {
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
				return lines, fmt.Sprintf("%s config[line %d]: Error: ridiculously long line (%d characters)", source, len(lines)+1, size), nil
			}
			size += lineBufSize
			toRead = lineBufSize + more
			if atEOF {
				break
			}
		}
		lines = append(lines, string(bytes.TrimSuffix(buf, []byte{'\n'})))
	}
	return lines, "", nil
}
