package main

import (
	"encoding/binary"
	"fmt"
	"sort"
)

// segment is one TCP segment as tshark reports it.
type segment struct {
	frame    int
	stream   int
	src, dst int
	syn, ack bool
	seq      uint32 // absolute sequence number
	payload  []byte
}

// pdu is one whole PDU and the side that sent it.
type pdu struct {
	fromClient bool
	data       []byte
}

// conn is one reassembled TCP connection.
type conn struct {
	stream     int
	clientPort int
	serverPort int
	pdus       []pdu
}

// maxPDU rejects absurd length fields, which mean the byte stream is out
// of step with PDU boundaries; pmcd's own ceiling is far lower.
const maxPDU = 64 << 20

// pduHeaderLen is PCP's PDU header: length, type and sender, 32 bits each.
const pduHeaderLen = 12

// direction reassembles one side of a connection and cuts it into PDUs.
type direction struct {
	next    uint32            // sequence number of the next byte wanted
	pending map[uint32][]byte // segments that arrived ahead of next
	buf     []byte            // in-order bytes not yet forming a whole PDU
}

func newDirection(isn uint32) *direction {
	return &direction{next: isn + 1, pending: make(map[uint32][]byte)}
}

// add takes a segment's payload and returns the PDUs it completes.
func (d *direction) add(seq uint32, data []byte) ([][]byte, error) {
	d.pending[seq] = data
	for progress := true; progress; {
		progress = false
		for s, p := range d.pending {
			// Signed distance copes with sequence number wrap-around.
			off := int32(s - d.next)
			end := off + int32(len(p))
			switch {
			case end <= 0: // a retransmission of bytes already taken
				delete(d.pending, s)
			case off <= 0:
				d.buf = append(d.buf, p[-off:]...)
				d.next += uint32(end)
				delete(d.pending, s)
				progress = true
			}
		}
	}
	var out [][]byte
	for len(d.buf) >= 4 {
		n := binary.BigEndian.Uint32(d.buf)
		if n < pduHeaderLen || n > maxPDU {
			return out, fmt.Errorf("bad PDU length %d", n)
		}
		if uint32(len(d.buf)) < n {
			break
		}
		out = append(out, append([]byte(nil), d.buf[:n]...))
		d.buf = d.buf[n:]
	}
	return out, nil
}

// finish reports bytes that never formed a whole PDU or never arrived.
func (d *direction) finish() error {
	if len(d.pending) > 0 {
		return fmt.Errorf("%d segments after a gap in the byte stream", len(d.pending))
	}
	if len(d.buf) > 0 {
		return fmt.Errorf("%d trailing bytes do not form a whole PDU", len(d.buf))
	}
	return nil
}

// reassemble rebuilds every connection whose accepting side used
// serverPort, in the order the connections began. PDUs are listed in the
// order their last byte was captured, which is the order each side saw
// them complete.
func reassemble(segs []segment, serverPort int) ([]conn, error) {
	byStream := make(map[int][]segment)
	for _, s := range segs {
		byStream[s.stream] = append(byStream[s.stream], s)
	}
	var conns []conn
	for id, ss := range byStream {
		sort.Slice(ss, func(i, j int) bool { return ss[i].frame < ss[j].frame })
		c, ok, err := reassembleOne(id, ss, serverPort)
		if err != nil {
			return nil, fmt.Errorf("tcp stream %d: %w", id, err)
		}
		if ok {
			conns = append(conns, c)
		}
	}
	sort.Slice(conns, func(i, j int) bool { return conns[i].stream < conns[j].stream })
	return conns, nil
}

// reassembleOne handles one TCP stream; ok is false when the stream does
// not belong to serverPort.
func reassembleOne(id int, ss []segment, serverPort int) (c conn, ok bool, err error) {
	var syn, synAck *segment
	for i := range ss {
		s := &ss[i]
		if s.syn && !s.ack && syn == nil {
			syn = s
		}
		if s.syn && s.ack && synAck == nil {
			synAck = s
		}
	}
	if syn == nil || synAck == nil {
		// Without the handshake the first PDU boundary is unknown.
		if ss[0].src == serverPort || ss[0].dst == serverPort {
			return c, false, fmt.Errorf("connection began before the capture")
		}
		return c, false, nil
	}
	if syn.dst != serverPort {
		return c, false, nil
	}
	c = conn{stream: id, clientPort: syn.src, serverPort: syn.dst}
	toServer, toClient := newDirection(syn.seq), newDirection(synAck.seq)
	for _, s := range ss {
		if len(s.payload) == 0 {
			continue
		}
		d, fromClient := toClient, false
		if s.src == c.clientPort {
			d, fromClient = toServer, true
		}
		whole, err := d.add(s.seq, s.payload)
		if err != nil {
			return c, false, fmt.Errorf("frame %d: %w", s.frame, err)
		}
		for _, w := range whole {
			c.pdus = append(c.pdus, pdu{fromClient: fromClient, data: w})
		}
	}
	if err := toServer.finish(); err != nil {
		return c, false, fmt.Errorf("connecting side: %w", err)
	}
	if err := toClient.finish(); err != nil {
		return c, false, fmt.Errorf("accepting side: %w", err)
	}
	return c, true, nil
}
