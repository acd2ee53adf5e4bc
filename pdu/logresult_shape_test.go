package pdu

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// shapeIDs are the PMIDs of selectRecord a test keeps.
var shapeIDs = []pcp.PMID{2, 5}

// TestShapeRepeats: records of one layout with other values are decoded
// from the shape, giving what the decoder gives; a record of another
// layout, or a damaged one, is decoded (and refused) by the decoder.
func TestShapeRepeats(t *testing.T) {
	for _, v3 := range []bool{false, true} {
		for _, words := range []bool{false, true} {
			t.Run(fmt.Sprintf("v3=%v,words=%v", v3, words), func(t *testing.T) {
				defer func(old bool) { noChunks = old }(noChunks)
				noChunks = words
				shapeRepeats(t, v3)
			})
		}
	}
}

// shapeRepeats is TestShapeRepeats for one format.
func shapeRepeats(t *testing.T, v3 bool) {
	{
		rec := selectRecord()
		first := AppendLogRecord(make([]byte, LogRecordPrefix), 0, rec, v3)
		// the same layout: other values, instances and time
		rec.Timestamp.Sec++
		rec.Sets[0].Values[1].LVal = 99
		rec.Sets[1].Values[0].Inst = 42
		rec.Sets[1].Values[1].Block.Data = []byte("zyxwv")
		binary.NativeEndian.PutUint64(rec.Sets[4].Values[0].Block.Data, 7)
		second := AppendLogRecord(make([]byte, LogRecordPrefix), 0, rec, v3)
		// another layout: a longer string
		rec.Sets[1].Values[0].Block.Data = []byte("abcdefgh")
		third := AppendLogRecord(make([]byte, LogRecordPrefix), 0, rec, v3)
		damaged := append([]byte(nil), second...)
		set2 := LogRecordPrefix + 12 + (8 + 4 + 2*8)
		if v3 {
			set2 += 4
		}
		binary.BigEndian.PutUint32(damaged[set2+12+4:], uint32(len(damaged))) // a block offset past the end
		var s Shape
		for i, b := range [][]byte{first, second, second, third, second, damaged, second} {
			t.Run(fmt.Sprintf("v3=%v/%d", v3, i), func(t *testing.T) {
				hit := s.ok && s.size == len(b) && s.same(b)
				var got, want pcp.Result
				n, err := DecodeLogRecordSelectShapeInto(&got, append([]byte(nil), b...), v3, shapeIDs, &s)
				wn, werr := DecodeLogRecordSelectPMIDsInto(&want, append([]byte(nil), b...), v3, shapeIDs)
				if fmt.Sprint(err) != fmt.Sprint(werr) || n != wn || got.Timestamp != want.Timestamp || !sameSets(got.Sets, want.Sets) {
					t.Fatalf("shape: %d %v %+v\ndecoder: %d %v %+v", n, err, got, wn, werr, want)
				}
				// which records the shape answers
				wantHit := i == 2 || i == 6
				if i == 1 {
					wantHit = true // second has first's layout
				}
				if hit != wantHit {
					t.Errorf("answered from the shape: %v, want %v", hit, wantHit)
				}
				// the shape is kept in chunks exactly where they are used
				if want := len(b) / 64 * 64; s.ok && (s.from == want) != (chunked() && want > 0) {
					t.Errorf("%d bytes of %d kept in chunks, chunked %v", s.from, len(b), chunked())
				}
			})
		}
	}
}

// FuzzDecodeLogRecordShape: a record decoded after another (which the
// shape learns when it passes) gives exactly what the decoder gives for
// it alone: the same error, count and sets.
func FuzzDecodeLogRecordShape(f *testing.F) {
	for _, v3 := range []bool{false, true} {
		good := AppendLogRecord(make([]byte, LogRecordPrefix), 0, selectRecord(), v3)
		f.Add(good, good, v3, uint8(0x24))
		other := append([]byte(nil), good...)
		other[len(other)-1] ^= 0xff
		f.Add(good, other, v3, uint8(0x24))
	}
	f.Fuzz(func(t *testing.T, a, b []byte, v3 bool, mask uint8) {
		if len(a) < LogRecordPrefix || len(b) < LogRecordPrefix {
			return
		}
		var ids []pcp.PMID
		for i := range 8 {
			if mask&(1<<i) != 0 {
				ids = append(ids, pcp.PMID(i))
			}
		}
		// the shape kept in chunks (where the CPU has AVX-512) and in
		// words
		defer func(old bool) { noChunks = old }(noChunks)
		for _, words := range []bool{false, true} {
			noChunks = words
			var s Shape
			var r pcp.Result
			DecodeLogRecordSelectShapeInto(&r, append([]byte(nil), a...), v3, ids, &s)
			var got, want pcp.Result
			n, err := DecodeLogRecordSelectShapeInto(&got, append([]byte(nil), b...), v3, ids, &s)
			wn, werr := DecodeLogRecordSelectPMIDsInto(&want, append([]byte(nil), b...), v3, ids)
			if fmt.Sprint(err) != fmt.Sprint(werr) || n != wn || (werr == nil && (got.Timestamp != want.Timestamp || !sameSets(got.Sets, want.Sets))) {
				t.Fatalf("words %v: after a shape: %d %v %+v\ndecoder: %d %v %+v", words, n, err, got.Sets, wn, werr, want.Sets)
			}
		}
	})
}
