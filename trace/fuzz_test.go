package trace_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/gopcp/gopcp/trace"
)

// FuzzReadPDU reads arbitrary streams as the agent does: every PDU read
// must stay within the protocol's bounds, and every DATA PDU that decodes
// must encode back to the same bytes when it came from a writer like
// libpcp_trace's (a tag without NULs, '~' padding, the length its tag
// needs).
func FuzzReadPDU(f *testing.F) {
	f.Add(trace.AppendData(nil, 1, "obs_tag", trace.TypeObserve, false, 3.25))
	f.Add(trace.AppendData(nil, 1, "p", trace.TypePoint, true, -1))
	f.Add(trace.AppendAck(nil, 1, 1))
	f.Add([]byte{0, 0, 0, 8})
	f.Add(bytes.Repeat([]byte{0xff}, 40))
	f.Fuzz(func(t *testing.T, stream []byte) {
		r := bytes.NewReader(stream)
		buf := make([]byte, trace.MaxPDULen)
		for i := 0; i < 1000; i++ {
			h, pdu, err := trace.ReadPDU(r, buf)
			if err != nil {
				return
			}
			if len(pdu) != int(h.Len) || len(pdu) < trace.AckLen || len(pdu) > trace.MaxPDULen {
				t.Fatalf("PDU of %d bytes, header says %d", len(pdu), h.Len)
			}
			if h.Type == trace.PDUAck {
				if _, err := trace.DecodeAck(pdu); (err == nil) != (len(pdu) == trace.AckLen) {
					t.Fatalf("ACK of %d bytes: %v", len(pdu), err)
				}
				continue
			}
			if h.Type != trace.PDUData {
				continue
			}
			d, err := trace.DecodeData(pdu)
			if err != nil {
				continue
			}
			if len(d.Tag) > int(d.TagLen) || d.TagLen > 125 {
				t.Fatalf("tag %q longer than its declared length %d", d.Tag, d.TagLen)
			}
			again := trace.AppendData(nil, h.From, d.Tag, d.Type, d.Sync, d.Value)
			if len(d.Tag)+1 == int(d.TagLen) && len(again) == len(pdu) && bytes.Equal(again[trace.HeaderLen+4+8:], pdu[trace.HeaderLen+4+8:]) && pdu[trace.HeaderLen+3]&0x7f == 0 {
				if !bytes.Equal(again, pdu) && !math.IsNaN(d.Value) {
					t.Fatalf("round trip\n in % x\nout % x", pdu, again)
				}
			}
		}
	})
}

// FuzzCheckTag checks the tag rules against the encoder: an accepted tag
// makes a PDU whose tag decodes back (when short enough for an agent).
func FuzzCheckTag(f *testing.F) {
	f.Add("tag")
	f.Add("")
	f.Add("a\x00b")
	f.Fuzz(func(t *testing.T, tag string) {
		if trace.CheckTag(tag) != nil {
			return
		}
		pdu := trace.AppendData(nil, 7, tag, trace.TypeCounter, true, 1)
		if len(pdu)%4 != 0 {
			t.Fatalf("PDU of %d bytes is not whole words", len(pdu))
		}
		if len(pdu) > trace.MaxPDULen || len(tag)+1 > 125 {
			return
		}
		d, err := trace.DecodeData(pdu)
		if err != nil || d.Tag != tag || !d.Sync || d.Type != trace.TypeCounter || d.Value != 1 {
			t.Fatalf("%q: %+v %v", tag, d, err)
		}
	})
}
