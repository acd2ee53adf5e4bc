package main

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// mkPDU builds a PDU of the given type with n payload bytes.
func mkPDU(typ uint32, n int) []byte {
	b := make([]byte, pduHeaderLen+n)
	binary.BigEndian.PutUint32(b, uint32(len(b)))
	binary.BigEndian.PutUint32(b[4:], typ)
	for i := range n {
		b[pduHeaderLen+i] = byte(i)
	}
	return b
}

func TestDirectionAdd(t *testing.T) {
	a, b, c := mkPDU(0x7000, 8), mkPDU(0x700c, 0), mkPDU(0x7015, 40)
	stream := bytes.Join([][]byte{a, b, c}, nil)
	const isn = 0xfffffff0 // so the stream wraps the sequence space
	type seg struct{ off, end int }
	tests := []struct {
		name string
		segs []seg
	}{
		{"one segment", []seg{{0, len(stream)}}},
		{"one per PDU", []seg{{0, len(a)}, {len(a), len(a) + len(b)}, {len(a) + len(b), len(stream)}}},
		{"split headers", []seg{{0, 3}, {3, 25}, {25, 26}, {26, len(stream)}}},
		{"out of order", []seg{{25, len(stream)}, {0, 10}, {10, 25}}},
		{"retransmitted and overlapping", []seg{{0, 10}, {0, 10}, {5, 30}, {20, len(stream)}, {30, 40}}},
	}
	for _, tt := range tests {
		d := newDirection(isn)
		var got [][]byte
		for _, s := range tt.segs {
			out, err := d.add(isn+1+uint32(s.off), stream[s.off:s.end])
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			got = append(got, out...)
		}
		if err := d.finish(); err != nil {
			t.Errorf("%s: finish: %v", tt.name, err)
		}
		if len(got) != 3 || !bytes.Equal(got[0], a) || !bytes.Equal(got[1], b) || !bytes.Equal(got[2], c) {
			t.Errorf("%s: got %x, want %x %x %x", tt.name, got, a, b, c)
		}
	}
}

func TestDirectionErrors(t *testing.T) {
	short := make([]byte, 8)
	binary.BigEndian.PutUint32(short, 8) // shorter than a header
	whole := mkPDU(0x7000, 4)
	tests := []struct {
		name    string
		seq     uint32
		data    []byte
		addErr  bool
		doneErr bool
	}{
		{"length below header size", 1, short, true, true},
		{"truncated PDU", 1, whole[:len(whole)-1], false, true},
		{"gap before data", 5, whole, false, true},
	}
	for _, tt := range tests {
		d := newDirection(0)
		_, err := d.add(tt.seq, tt.data)
		if (err != nil) != tt.addErr {
			t.Errorf("%s: add error %v, want error %v", tt.name, err, tt.addErr)
		}
		if err := d.finish(); (err != nil) != tt.doneErr {
			t.Errorf("%s: finish error %v, want error %v", tt.name, err, tt.doneErr)
		}
	}
}

func TestReassemble(t *testing.T) {
	hello, creds := mkPDU(0x7000, 8), mkPDU(0x700c, 8)
	const client, server, other = 50000, 44401, 2077
	segs := []segment{
		// stream 1 belongs to another server port and must be ignored
		{frame: 1, stream: 1, src: client + 1, dst: other, syn: true, seq: 7},
		{frame: 2, stream: 1, src: other, dst: client + 1, syn: true, ack: true, seq: 9},
		{frame: 3, stream: 0, src: client, dst: server, syn: true, seq: 100},
		{frame: 4, stream: 0, src: server, dst: client, syn: true, ack: true, seq: 500},
		{frame: 5, stream: 0, src: server, dst: client, ack: true, seq: 501, payload: hello},
		{frame: 6, stream: 0, src: client, dst: server, ack: true, seq: 101, payload: creds},
	}
	conns, err := reassemble(segs, server)
	if err != nil {
		t.Fatal(err)
	}
	if len(conns) != 1 {
		t.Fatalf("got %d connections, want 1", len(conns))
	}
	c := conns[0]
	if c.clientPort != client || c.serverPort != server || len(c.pdus) != 2 {
		t.Fatalf("got %+v", c)
	}
	if c.pdus[0].fromClient || !bytes.Equal(c.pdus[0].data, hello) ||
		!c.pdus[1].fromClient || !bytes.Equal(c.pdus[1].data, creds) {
		t.Errorf("PDUs out of order or misattributed: %+v", c.pdus)
	}

	// A connection to the wanted port whose handshake was not captured
	// cannot be split reliably.
	if _, err := reassemble(segs[4:], server); err == nil {
		t.Error("connection without its handshake was accepted")
	}
}

func TestParseCaptureRoundTrip(t *testing.T) {
	c := conn{pdus: []pdu{{false, mkPDU(0x7000, 8)}, {true, mkPDU(0x700c, 8)}}}
	text := render([]string{"scenario: test", "second line"}, c)
	cf, err := parseCapture("x.pdus", text)
	if err != nil {
		t.Fatal(err)
	}
	if len(cf.comments) != 3 || cf.comments[0] != "scenario: test" || cf.comments[2] != provenance {
		t.Errorf("comments = %q", cf.comments)
	}
	if len(cf.pdus) != 2 || cf.pdus[0].fromClient || !cf.pdus[1].fromClient {
		t.Errorf("pdus = %+v", cf.pdus)
	}
	bad := []string{
		"> 0000000d00007000000000000000000000\n", // length says 13, line has 17 bytes
		"? 0000000c0000700000000000\n",
		">0000000c0000700000000000\n",
		"> zz\n",
	}
	for _, b := range bad {
		if _, err := parseCapture("bad.pdus", []byte(b)); err == nil {
			t.Errorf("parseCapture accepted %q", b)
		}
	}
}
