package resp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// Limits bound what one reply may make the reader hold or do. A zero
// field takes its default.
type Limits struct {
	MaxDepth int   // aggregates within aggregates (default 32)
	MaxBulk  int64 // bytes of one bulk string (default 512 MiB, Redis's own proto-max-bulk-len)
	MaxElems int64 // elements of one aggregate (default 1<<26)
}

// Default limits.
const (
	defaultDepth = 32
	defaultBulk  = 512 << 20
	defaultElems = 1 << 26
	// bulks above this are read a chunk at a time, so a length that
	// no data follows costs nothing
	bulkChunk = 1 << 20
	// elements made room for before they arrive
	elemsAhead = 1024
)

func (l Limits) withDefaults() Limits {
	if l.MaxDepth <= 0 {
		l.MaxDepth = defaultDepth
	}
	if l.MaxBulk <= 0 {
		l.MaxBulk = defaultBulk
	}
	if l.MaxElems <= 0 {
		l.MaxElems = defaultElems
	}
	return l
}

// Reader decodes replies from a stream.
type Reader struct {
	r   *bufio.Reader
	lim Limits
}

// NewReader reads replies from r within lim.
func NewReader(r *bufio.Reader, lim Limits) *Reader {
	return &Reader{r: r, lim: lim.withDefaults()}
}

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrProtocol, fmt.Sprintf(format, args...))
}

// line is the next line without its CRLF; it is valid until the next read.
func (rd *Reader) line() ([]byte, error) {
	b, err := rd.r.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, malformed("reply line longer than %d bytes", rd.r.Size())
		}
		if err == io.EOF && len(b) > 0 {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if len(b) < 3 || b[len(b)-2] != '\r' {
		return nil, malformed("reply line %q", b)
	}
	return b[:len(b)-2], nil
}

// parseInt reads a signed decimal, as Redis writes lengths and integers.
func parseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n > (1<<63-1-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	if neg {
		n = -n
	}
	return n, true
}

// length reads an aggregate's or bulk's length: -1 is nil, and only -1.
func length(line []byte, max int64) (int64, error) {
	n, ok := parseInt(line[1:])
	if !ok || n < -1 {
		return 0, malformed("length %q", line)
	}
	if n > max {
		return 0, malformed("length %d over the bound %d", n, max)
	}
	return n, nil
}

// Read decodes one reply. An error reply is a Value of KindError, not an
// error: the error is for what breaks the stream (ErrProtocol, I/O).
func (rd *Reader) Read() (Value, error) {
	return rd.read(0)
}

func (rd *Reader) read(depth int) (Value, error) {
	line, err := rd.line()
	if err != nil {
		return Value{}, err
	}
	switch line[0] {
	case '+':
		return Value{Kind: KindSimple, Str: string(line[1:])}, nil
	case '-':
		return Value{Kind: KindError, Str: string(line[1:])}, nil
	case ':':
		n, ok := parseInt(line[1:])
		if !ok {
			return Value{}, malformed("integer %q", line)
		}
		return Value{Kind: KindInt, Int: n}, nil
	case '_':
		if len(line) != 1 {
			return Value{}, malformed("null %q", line)
		}
		return Value{Kind: KindNil}, nil
	case '#':
		if len(line) != 2 || line[1] != 't' && line[1] != 'f' {
			return Value{}, malformed("boolean %q", line)
		}
		if line[1] == 't' {
			return Value{Kind: KindBool, Int: 1}, nil
		}
		return Value{Kind: KindBool}, nil
	case ',':
		return Value{Kind: KindDouble, Str: string(line[1:])}, nil
	case '(':
		return Value{Kind: KindBulk, Str: string(line[1:])}, nil
	case '$', '=', '!':
		kind := line[0]
		n, err := length(line, rd.lim.MaxBulk)
		if err != nil {
			return Value{}, err
		}
		if n < 0 {
			return Value{Kind: KindNil}, nil
		}
		s, err := rd.bulk(n)
		if err != nil {
			return Value{}, err
		}
		switch kind {
		case '!':
			return Value{Kind: KindError, Str: s}, nil
		case '=': // "txt:" or "mkd:" before the text
			if len(s) < 4 || s[3] != ':' {
				return Value{}, malformed("verbatim string without its format")
			}
			s = s[4:]
		}
		return Value{Kind: KindBulk, Str: s}, nil
	case '*', '~', '>', '%', '|':
		kind := line[0]
		if depth >= rd.lim.MaxDepth {
			return Value{}, malformed("replies nested deeper than %d", rd.lim.MaxDepth)
		}
		n, err := length(line, rd.lim.MaxElems)
		if err != nil {
			return Value{}, err
		}
		if n < 0 {
			return Value{Kind: KindNil}, nil
		}
		if kind == '%' || kind == '|' {
			if n > rd.lim.MaxElems/2 {
				return Value{}, malformed("map of %d entries over the bound", n)
			}
			n *= 2
		}
		elems := make([]Value, 0, min(n, elemsAhead))
		for range n {
			e, err := rd.read(depth + 1)
			if err != nil {
				return Value{}, err
			}
			elems = append(elems, e)
		}
		switch kind {
		case '|': // attributes come before the reply they describe
			return rd.read(depth)
		case '%':
			return Value{Kind: KindMap, Elems: elems}, nil
		}
		return Value{Kind: KindArray, Elems: elems}, nil
	}
	return Value{}, malformed("reply type %q", line[0])
}

// bulk reads n bytes and their CRLF.
func (rd *Reader) bulk(n int64) (string, error) {
	var buf []byte
	if n <= bulkChunk {
		buf = make([]byte, n+2)
		if _, err := io.ReadFull(rd.r, buf); err != nil {
			return "", unexpected(err)
		}
	} else {
		// grown as the data arrives: a length alone holds nothing
		for left := n + 2; left > 0; {
			k := min(left, bulkChunk)
			buf = append(buf, make([]byte, k)...)
			if _, err := io.ReadFull(rd.r, buf[len(buf)-int(k):]); err != nil {
				return "", unexpected(err)
			}
			left -= k
		}
	}
	if buf[n] != '\r' || buf[n+1] != '\n' {
		return "", malformed("bulk string not ended by CRLF")
	}
	return string(buf[:n]), nil
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Skip reads one reply without keeping it, for pipelines whose replies
// matter only when they are errors: it returns the text of an error reply
// ("" for any other reply).
func (rd *Reader) Skip() (string, error) {
	for {
		line, err := rd.line()
		if err != nil {
			return "", err
		}
		switch line[0] {
		case '-':
			return string(line[1:]), nil
		case '!':
			n, err := length(line, rd.lim.MaxBulk)
			if err != nil || n < 0 {
				return "", err
			}
			return rd.bulk(n)
		case '|':
			// attributes, then the reply they describe
			if err := rd.skipFrom(line); err != nil {
				return "", err
			}
			continue
		}
		return "", rd.skipFrom(line)
	}
}

// skipFrom reads the rest of the reply line begins: its elements, each
// counted instead of recursed into, so nesting costs no stack.
func (rd *Reader) skipFrom(line []byte) error {
	// bounded so the count cannot overflow
	const maxPending = 1 << 40
	var pending int64
	for {
		switch line[0] {
		case '+', '-', '_', '#', ',', '(':
		case ':':
			if _, ok := parseInt(line[1:]); !ok {
				return malformed("integer %q", line)
			}
		case '$', '=', '!':
			n, err := length(line, rd.lim.MaxBulk)
			if err != nil {
				return err
			}
			if n >= 0 {
				if _, err := rd.r.Discard(int(n)); err != nil {
					return unexpected(err)
				}
				end, err := rd.r.Peek(2)
				if err != nil {
					return unexpected(err)
				}
				if end[0] != '\r' || end[1] != '\n' {
					return malformed("bulk string not ended by CRLF")
				}
				rd.r.Discard(2)
			}
		case '*', '~', '>', '%', '|':
			n, err := length(line, rd.lim.MaxElems)
			if err != nil {
				return err
			}
			if line[0] == '%' || line[0] == '|' {
				n *= 2
			}
			if n > 0 {
				if pending+n > maxPending {
					return malformed("reply of more than %d elements", int64(maxPending))
				}
				pending += n
			}
		default:
			return malformed("reply type %q", line[0])
		}
		if pending == 0 {
			return nil
		}
		pending--
		var err error
		if line, err = rd.line(); err != nil {
			return err
		}
	}
}
