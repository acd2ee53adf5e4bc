package resp

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"testing"
)

// FuzzRead: any bytes decode to values or an error, within the bounds,
// without a panic; Read and Skip agree on where a reply ends and on its
// error text.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"+OK\r\n", "-ERR x\r\n", ":1\r\n", "$3\r\nabc\r\n", "$-1\r\n", "*2\r\n:1\r\n$1\r\na\r\n",
		"%1\r\n+a\r\n:1\r\n", "|1\r\n+a\r\n:1\r\n+OK\r\n", "=7\r\ntxt:abc\r\n", "!3\r\nERR\r\n",
		"_\r\n", "#t\r\n", ",1.5\r\n", "(1\r\n", "~1\r\n>1\r\n:2\r\n", "*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n",
	} {
		f.Add([]byte(s))
	}
	lim := Limits{MaxDepth: 3, MaxBulk: 64, MaxElems: 16}
	f.Fuzz(func(t *testing.T, in []byte) {
		src, src2 := &counted{r: bytes.NewReader(in)}, &counted{r: bytes.NewReader(in)}
		br := bufio.NewReaderSize(src, 32)
		rd := NewReader(br, lim)
		br2 := bufio.NewReaderSize(src2, 32)
		sk := NewReader(br2, Limits{MaxDepth: 1 << 20, MaxBulk: 64, MaxElems: 16})
		for range 64 {
			v, err := rd.Read()
			if err != nil {
				if !errors.Is(err, ErrProtocol) && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("Read error %v", err)
				}
				return
			}
			if depth(v) > lim.MaxDepth+1 {
				t.Fatalf("depth %d over the bound", depth(v))
			}
			msg, err := sk.Skip()
			if err != nil {
				t.Fatalf("Read gave %+v, Skip failed: %v", v, err)
			}
			if want := map[bool]string{true: v.Str}[v.Kind == KindError]; msg != want {
				t.Fatalf("Read %+v, Skip %q", v, msg)
			}
			if src.n-br.Buffered() != src2.n-br2.Buffered() {
				t.Fatalf("Read and Skip ended at different places")
			}
		}
	})
}

func depth(v Value) int {
	d := 0
	for _, e := range v.Elems {
		d = max(d, depth(e))
	}
	if v.Kind == KindArray || v.Kind == KindMap {
		d++
	}
	return d
}

// counted counts the bytes read from r.
type counted struct {
	r io.Reader
	n int
}

func (c *counted) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// FuzzClusterReplies: any reply read as CLUSTER SLOTS's, and any error
// text read as MOVED or ASK, gives ranges within the slots and addresses
// that parse, or a refusal, without a panic.
func FuzzClusterReplies(f *testing.F) {
	f.Add([]byte(slotsReply("127.0.0.1:7000")), "MOVED 3999 127.0.0.1:6381")
	f.Add([]byte("*1\r\n*3\r\n:0\r\n:99999\r\n*2\r\n$0\r\n\r\n:1\r\n"), "ASK 1 :6380")
	f.Fuzz(func(t *testing.T, reply []byte, msg string) {
		if v, err := NewReader(bufio.NewReader(bytes.NewReader(reply)), Limits{}).Read(); err == nil {
			ranges, err := parseSlots(v, "127.0.0.1:7000")
			for _, r := range ranges {
				if err != nil || r.Start < 0 || r.End >= Slots || r.Start > r.End {
					t.Fatalf("range %+v (%v)", r, err)
				}
				if _, _, err := net.SplitHostPort(r.Addr); err != nil {
					t.Fatalf("address %q: %v", r.Addr, err)
				}
			}
		}
		if slot, addr, ok := redirect(msg, "127.0.0.1:7000"); ok {
			if slot < 0 || slot >= Slots {
				t.Fatalf("slot %d", slot)
			}
			if _, _, err := net.SplitHostPort(addr); err != nil {
				t.Fatalf("address %q: %v", addr, err)
			}
		}
	})
}
