package pdu

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// slowWriter writes p in pieces of varying size, so that PDUs arrive split
// at every kind of boundary.
func slowWrite(w io.Writer, p []byte) error {
	for i, n := 0, 1; i < len(p); n = n%7 + 1 {
		end := min(len(p), i+n)
		if _, err := w.Write(p[i:end]); err != nil {
			return err
		}
		i = end
	}
	return nil
}

func TestReadPDUFragments(t *testing.T) {
	big := &pcp.Result{}
	for i := range 3000 {
		big.Sets = append(big.Sets, pcp.ValueSet{PMID: pcp.PMID(i), NumVal: 1, Values: []pcp.Value{{Inst: int32(i), LVal: 7}}})
	}
	pdus := [][]byte{
		mustPDU(&Error{Code: -1}, 1),
		AppendResult(nil, 2, big), // larger than the buffer's first growth
		mustPDU(VersionCreds(FlagAuth), 3),
		AppendResult(nil, 4, mixedResult()),
	}
	client, server := net.Pipe()
	defer client.Close()
	go func() {
		defer server.Close()
		for _, p := range pdus {
			if err := slowWrite(server, p); err != nil {
				return
			}
		}
	}()
	r := NewReader(client, DefaultTimeout)
	for i, want := range pdus {
		got, err := r.ReadPDU(context.Background())
		if err != nil {
			t.Fatalf("PDU %d: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("PDU %d: read %d bytes, sent %d", i, len(got), len(want))
		}
	}
	if _, err := r.ReadPDU(context.Background()); err != io.EOF {
		t.Errorf("after the last PDU: %v, want io.EOF", err)
	}
}

func TestReadPDUStreamErrors(t *testing.T) {
	pdu := mustPDU(&Fetch{PMIDs: []pcp.PMID{1, 2, 3}}, 0)
	hdr := func(l int32, typ Type) []byte { return AppendHeader(nil, Header{Len: l, Type: typ}) }
	for _, tc := range []struct {
		name   string
		stream []byte
		max    int
		want   []error
		text   []string
	}{
		{name: "empty", stream: nil, want: []error{io.EOF}},
		{name: "in header", stream: pdu[:5], want: []error{io.ErrUnexpectedEOF, pcp.ErrIPC}},
		{name: "in body", stream: pdu[:len(pdu)-1], want: []error{io.ErrUnexpectedEOF, pcp.ErrIPC}},
		{name: "length 11", stream: hdr(11, TypeError), want: []error{pcp.ErrIPC}},
		{name: "negative length", stream: hdr(-12, TypeError), want: []error{pcp.ErrIPC}},
		{name: "negative type", stream: hdr(12, -1), want: []error{pcp.ErrIPC}},
		{name: "over the maximum", stream: hdr(70000, TypeFetch), max: ClientMaxLen,
			want: []error{pcp.ErrTooBig}, text: []string{"70000", "65536"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(bytes.NewReader(tc.stream), DefaultTimeout)
			r.MaxLen = tc.max
			_, err := r.ReadPDU(context.Background())
			for _, w := range tc.want {
				if !errors.Is(err, w) {
					t.Errorf("error %v, want %v", err, w)
				}
			}
			for _, s := range tc.text {
				if err == nil || !strings.Contains(err.Error(), s) {
					t.Errorf("error %v does not name %s", err, s)
				}
			}
		})
	}
	// At the maximum is fine.
	r := NewReader(bytes.NewReader(pdu), DefaultTimeout)
	r.MaxLen = len(pdu)
	if _, err := r.ReadPDU(context.Background()); err != nil {
		t.Errorf("PDU of exactly MaxLen: %v", err)
	}
}

// TestReadPDUNoOverAllocation sends a header claiming 2 GiB and then a
// little data: the Reader must not allocate what the header claims.
func TestReadPDUNoOverAllocation(t *testing.T) {
	stream := append(AppendHeader(nil, Header{Len: 0x7fffffff, Type: TypeResult}), make([]byte, 100)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := NewReader(bytes.NewReader(stream), DefaultTimeout).ReadPDU(context.Background())
	runtime.ReadMemStats(&after)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("error %v, want io.ErrUnexpectedEOF", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("allocated %d bytes for a 112-byte stream", grew)
	}
}

// loopReader yields the same PDU forever.
type loopReader struct {
	pdu []byte
	off int
}

func (l *loopReader) Read(p []byte) (int, error) {
	n := copy(p, l.pdu[l.off:])
	l.off = (l.off + n) % len(l.pdu)
	return n, nil
}

func TestReadPDUNoAlloc(t *testing.T) {
	r := NewReader(&loopReader{pdu: AppendResult(nil, 0, mixedResult())}, DefaultTimeout)
	ctx := context.Background()
	if _, err := r.ReadPDU(ctx); err != nil {
		t.Fatal(err)
	}
	if allocs := testing.AllocsPerRun(100, func() { r.ReadPDU(ctx) }); allocs != 0 {
		t.Errorf("%v allocations per PDU once the buffer has grown", allocs)
	}
}

func TestReadPDUTimeout(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	defer server.Close()
	r := NewReader(client, DefaultTimeout)
	r.Timeout = 50 * time.Millisecond
	if _, err := r.ReadPDU(context.Background()); !errors.Is(err, pcp.ErrTimeout) {
		t.Errorf("nothing sent: %v, want pcp.ErrTimeout", err)
	}
	// A PDU that starts but never finishes times out too.
	go server.Write(mustPDU(&Error{}, 0)[:6])
	if _, err := r.ReadPDU(context.Background()); !errors.Is(err, pcp.ErrTimeout) {
		t.Errorf("half a header: %v, want pcp.ErrTimeout", err)
	}
}

// TestReadPDUIdleWait: with IdleWait, a Reader waits for a PDU to begin
// however long that takes, as pmcd waits on its clients.
func TestReadPDUIdleWait(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	defer server.Close()
	pdu := mustPDU(&Error{Code: -1}, 0)
	go func() {
		time.Sleep(300 * time.Millisecond) // several Timeouts
		server.Write(pdu)
	}()
	r := NewReader(client, DefaultTimeout)
	r.Timeout = 100 * time.Millisecond
	r.IdleWait = true
	got, err := r.ReadPDU(context.Background())
	if err != nil || !bytes.Equal(got, pdu) {
		t.Errorf("got %x, %v", got, err)
	}
}

func TestReadPDUContext(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	defer server.Close()
	r := NewReader(client, DefaultTimeout)
	r.Timeout = 0

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	if _, err := r.ReadPDU(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	if _, err := r.ReadPDU(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("already cancelled: %v, want context.Canceled", err)
	}

	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	_, err := r.ReadPDU(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, pcp.ErrTimeout) {
		t.Errorf("deadline: %v, want context.DeadlineExceeded and pcp.ErrTimeout", err)
	}

	// The connection is usable afterwards: no deadline is left behind.
	pdu := mustPDU(&Error{}, 0)
	go server.Write(pdu)
	if got, err := r.ReadPDU(context.Background()); err != nil || !bytes.Equal(got, pdu) {
		t.Errorf("after the deadline: %x, %v", got, err)
	}
}

func TestWriterConcurrent(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	w := NewWriter(server)
	const writers, each = 8, 50
	var wg sync.WaitGroup
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				m := &Fetch{Context: int32(g), PMIDs: make([]pcp.PMID, i%5+1)}
				for k := range m.PMIDs {
					m.PMIDs[k] = pcp.PMID(g*1000 + i)
				}
				if i%2 == 0 {
					w.WriteMessage(context.Background(), m, int32(g))
				} else {
					w.WritePDU(context.Background(), mustPDU(m, int32(g)))
				}
			}
		}()
	}
	go func() { wg.Wait(); server.Close() }()
	r := NewReader(client, DefaultTimeout)
	n := 0
	for {
		b, err := r.ReadPDU(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var m Fetch
		if err := m.Decode(b); err != nil {
			t.Fatalf("PDU %d: %v", n, err)
		}
		h, _ := ParseHeader(b)
		for _, p := range m.PMIDs {
			if int32(p)/1000 != m.Context || h.From != m.Context {
				t.Fatalf("PDU %d mixes writers: %+v from %d", n, m, h.From)
			}
		}
		n++
	}
	if n != writers*each {
		t.Errorf("read %d PDUs, sent %d", n, writers*each)
	}
}

func TestWriterErrors(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	defer server.Close()
	w := NewWriter(server)
	w.Timeout = 50 * time.Millisecond
	pdu := mustPDU(&Error{}, 0)
	if err := w.WritePDU(context.Background(), pdu); !errors.Is(err, pcp.ErrTimeout) {
		t.Errorf("nobody reading: %v, want pcp.ErrTimeout", err)
	}
	w.Timeout = 0
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	if err := w.WritePDU(ctx, pdu); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	for _, bad := range [][]byte{pdu[:8], withLen(pdu, 20)} {
		if err := w.WritePDU(context.Background(), bad); !errors.Is(err, pcp.ErrIPC) {
			t.Errorf("WritePDU(%x) = %v, want pcp.ErrIPC", bad, err)
		}
	}
}

// FuzzReadPDU reads PDUs from an arbitrary stream until it fails: each
// PDU returned must be whole and within the limit, and the failure one of
// the documented ones.
func FuzzReadPDU(f *testing.F) {
	f.Add(append(mustPDU(&Error{}, 0), mustPDU(VersionCreds(0), 1)...))
	f.Add(AppendResult(nil, 0, mixedResult()))
	f.Add(AppendHeader(nil, Header{Len: 0x7fffffff, Type: TypeResult}))
	f.Fuzz(func(t *testing.T, stream []byte) {
		r := NewReader(bytes.NewReader(stream), DefaultTimeout)
		r.MaxLen = 1 << 16
		used := 0
		for {
			pdu, err := r.ReadPDU(context.Background())
			if err != nil {
				if err != io.EOF && !errors.Is(err, pcp.ErrIPC) && !errors.Is(err, pcp.ErrTooBig) {
					t.Fatalf("error %v is not a documented one", err)
				}
				return
			}
			used += len(pdu)
			if len(pdu) < HeaderSize || len(pdu) > r.MaxLen || int(binary.BigEndian.Uint32(pdu)) != len(pdu) || used > len(stream) {
				t.Fatalf("bad PDU of %d bytes: %x", len(pdu), pdu[:min(len(pdu), 16)])
			}
		}
	})
}

// TestParseRequestTimeout reads $PMCD_REQUEST_TIMEOUT's values as PCP
// does; the environment itself is read by internal/cli, and a Reader takes
// its timeout from its caller whatever the environment says.
func TestParseRequestTimeout(t *testing.T) {
	for v, want := range map[string]time.Duration{
		"2.5":     2500 * time.Millisecond,
		"0":       0,
		"-1":      DefaultTimeout,
		"abc":     DefaultTimeout,
		"1e30":    0, // past a Duration: no limit, libpcp's effectively forever
		"":        0, // strtod's zero, as libpcp reads it
		"0x10":    16 * time.Second,
		" 5":      5 * time.Second,
		"5 ":      DefaultTimeout,
		"1e10":    0,
		"0x1_0p0": DefaultTimeout,
		"5e-7":    0, // under half a microsecond: libpcp's timeval rounds it away
	} {
		if got := ParseRequestTimeout(v); got != want {
			t.Errorf("PMCD_REQUEST_TIMEOUT=%q: %v, want %v", v, got, want)
		}
	}
	t.Setenv("PMCD_REQUEST_TIMEOUT", "2.5")
	if got := NewReader(nil, 3*time.Second).Timeout; got != 3*time.Second {
		t.Errorf("NewReader's timeout %v, want its argument", got)
	}
}
