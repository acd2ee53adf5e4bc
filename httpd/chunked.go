package httpd

import (
	"bytes"
)

// maxChunkLine bounds a chunk-size line (with its extensions) and each
// trailer line.
const maxChunkLine = 4096

// Phases of a chunked body.
const (
	chunkSize = iota
	chunkData
	chunkDataEnd
	chunkTrailer
	chunkDone
)

// dechunker decodes a chunked body in place as its bytes arrive: the
// body buffer holds the decoded data at its start ([0, out)) and the
// bytes not yet decoded from raw on, so a body sent in small chunks takes
// no more room than its data and one line. Its zero value is ready.
type dechunker struct {
	phase int
	out   int   // decoded bytes, at the start of the buffer
	raw   int   // the first byte not yet decoded
	left  int64 // data left in the current chunk
}

// decode goes on decoding b (the bytes after the head, the same buffer
// as before with more appended), bounded by max decoded bytes. It
// reports whether the body is complete; then b[:d.out] is the body and
// the request's bytes end at d.raw.
func (d *dechunker) decode(b []byte, max int64) (bool, error) {
	for {
		switch d.phase {
		case chunkSize:
			line, ok, err := d.line(b)
			if !ok || err != nil {
				return false, err
			}
			if i := bytes.IndexByte(line, ';'); i >= 0 {
				line = line[:i]
			}
			n, ok := parseHex(bytes.TrimRight(line, " \t"))
			if !ok {
				return false, refuse(StatusBadRequest, "bad chunk size")
			}
			if n > max-int64(d.out) {
				return false, refuse(StatusRequestEntityTooLarge, "")
			}
			d.left = n
			d.phase = chunkData
			if n == 0 {
				d.phase = chunkTrailer
			}
		case chunkData:
			n := min(d.left, int64(len(b)-d.raw))
			if n == 0 {
				return false, nil
			}
			copy(b[d.out:], b[d.raw:d.raw+int(n)])
			d.out += int(n)
			d.raw += int(n)
			d.left -= n
			if d.left == 0 {
				d.phase = chunkDataEnd
			}
		case chunkDataEnd:
			line, ok, err := d.line(b)
			if !ok || err != nil {
				return false, err
			}
			if len(line) != 0 {
				return false, refuse(StatusBadRequest, "chunk data longer than its size")
			}
			d.phase = chunkSize
		case chunkTrailer:
			line, ok, err := d.line(b)
			if !ok || err != nil {
				return false, err
			}
			if len(line) == 0 {
				d.phase = chunkDone
			}
		case chunkDone:
			return true, nil
		}
	}
}

// line takes the next line from b at raw, without its CRLF or LF.
func (d *dechunker) line(b []byte) ([]byte, bool, error) {
	rest := b[d.raw:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		if len(rest) > maxChunkLine {
			return nil, false, refuse(StatusBadRequest, "chunk line too long")
		}
		return nil, false, nil
	}
	if i > maxChunkLine {
		return nil, false, refuse(StatusBadRequest, "chunk line too long")
	}
	d.raw += i + 1
	line := rest[:i]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, true, nil
}

// parseHex is a chunk size: hex digits, at most 15 of them.
func parseHex(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		n = n<<4 | int64(c)
	}
	return n, true
}
