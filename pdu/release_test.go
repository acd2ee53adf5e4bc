package pdu

import (
	"bytes"
	"context"
	"testing"
)

// TestRelease reads PDUs with a Release after each: every PDU arrives
// whole, the Reader holds no storage between them, storage over 16 KiB
// stays with its Reader, and a read-and-release costs no allocation once
// the pool has storage.
func TestRelease(t *testing.T) {
	small := mustPDU(&Error{Code: -12345}, 0)
	big := mustPDU(&Text{Ident: 1, Text: string(bytes.Repeat([]byte("x"), 20<<10))}, 0)
	var stream bytes.Buffer
	for range 3 {
		stream.Write(small)
	}
	stream.Write(big)
	stream.Write(small)
	r := NewReader(&stream, 0)
	ctx := context.Background()
	for i, want := range [][]byte{small, small, small, big, small} {
		got, err := r.ReadPDU(ctx)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("PDU %d: %d bytes, %v", i, len(got), err)
		}
		before := cap(r.buf)
		r.Release()
		if keep := before > maxPooledBuf; (cap(r.buf) > 0) != keep {
			t.Errorf("PDU %d: storage of %d bytes, %d held after Release", i, before, cap(r.buf))
		}
	}

	if raceEnabled {
		return // the pool drops some of what it is given under -race
	}
	var loop bytes.Reader
	r = NewReader(&loop, 0)
	allocs := testing.AllocsPerRun(100, func() {
		loop.Reset(small)
		if _, err := r.ReadPDU(ctx); err != nil {
			t.Fatal(err)
		}
		r.Release()
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per read and release, want 0", allocs)
	}
}
