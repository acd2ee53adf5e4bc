package pdu

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"unsafe"

	"github.com/gopcp/gopcp/pcp"
)

// decodeAnyResult decodes a captured RESULT or HIGHRES_RESULT.
func decodeAnyResult(p goldenPDU) (*pcp.Result, error) {
	r := new(pcp.Result)
	if p.h.Type == TypeHighResResult {
		return r, DecodeHighResResultInto(r, p.b)
	}
	return r, DecodeResultInto(r, p.b)
}

func extract(t *testing.T, where string, s *pcp.ValueSet, typ pcp.Type) pcp.Atom {
	t.Helper()
	if s.NumVal != 1 || len(s.Values) != 1 || s.Values[0].Inst != pcp.InstNull {
		t.Fatalf("%s: %v: %d values %+v, want one without instance", where, s.PMID, s.NumVal, s.Values)
	}
	a, err := pcp.ExtractValue(s.ValFmt, &s.Values[0], typ, typ)
	if err != nil {
		t.Fatalf("%s: %v: ExtractValue: %v", where, s.PMID, err)
	}
	return a
}

// walkEvents checks a decoded event array block in host order, as
// pmUnpackEventRecords would read it, and returns its record count and the
// PMIDs of its parameters.
func walkEvents(data []byte, highres bool) (nrec int, params []pcp.PMID, ok bool) {
	ne := binary.NativeEndian
	if len(data) < 4 {
		return 0, nil, false
	}
	n := int(ne.Uint32(data))
	p := 4
	rec := 16
	if highres {
		rec = 24
	}
	for r := 0; r < n; r++ {
		if len(data)-p < rec {
			return n, params, false
		}
		flags, np := ne.Uint32(data[p+rec-8:]), int(ne.Uint32(data[p+rec-4:]))
		p += rec
		if flags&eventFlagMissed != 0 {
			continue
		}
		for k := 0; k < np; k++ {
			if len(data)-p < 8 {
				return n, params, false
			}
			params = append(params, pcp.PMID(ne.Uint32(data[p:])))
			l := int(ne.Uint32(data[p+4:]) & pcp.MaxValueLen)
			p += 4 + align4(l)
		}
	}
	return n, params, p <= len(data)
}

// TestResultCaptured decodes every captured RESULT and HIGHRES_RESULT and
// checks the values the sample agent returned against what pminfo reports
// for them. sample.long.one must be among them.
func TestResultCaptured(t *testing.T) {
	seen := map[pcp.PMID]int{}
	results := append(goldenOfType(t, TypeResult), goldenOfType(t, TypeHighResResult)...)
	for _, p := range results {
		r, err := decodeAnyResult(p)
		if err != nil {
			t.Errorf("%s: %v", p.where(), err)
			continue
		}
		if p.connector || !(p.toPMCD || p.toAgent) {
			// A store request (pmstore to pmcd, pmcd to an agent)
			// carries the caller's values, not the agent's, and
			// pmlogger's results are logging states.
			continue
		}
		for i := range r.Sets {
			s := &r.Sets[i]
			if s.NumVal < 0 {
				continue
			}
			where := p.where()
			seen[s.PMID]++
			switch s.PMID {
			case pmidSampleLongOne:
				if a := extract(t, where, s, pcp.Type32); s.ValFmt != pcp.ValInSitu || a.L != 1 {
					t.Errorf("%s: sample.long.one = %d (valfmt %d), want 1 in situ", where, a.L, s.ValFmt)
				}
			case pmidSampleLongMillion:
				if a := extract(t, where, s, pcp.Type32); a.L != 1000000 {
					t.Errorf("%s: sample.long.million = %d", where, a.L)
				}
			case pmidSampleLongLongOne:
				if a := extract(t, where, s, pcp.Type64); a.LL != 1 || s.Values[0].Block.Type != pcp.Type64 {
					t.Errorf("%s: sample.longlong.one = %d in a block of type %d", where, a.LL, s.Values[0].Block.Type)
				}
			case pmidSampleULLMillion:
				if a := extract(t, where, s, pcp.TypeU64); a.ULL != 1000000 {
					t.Errorf("%s: sample.ulonglong.million = %d", where, a.ULL)
				}
			case pmidSampleDoubleOne:
				if a := extract(t, where, s, pcp.TypeDouble); a.D != 1 {
					t.Errorf("%s: sample.double.one = %v", where, a.D)
				}
			case pmidSampleFloatOne:
				if a := extract(t, where, s, pcp.TypeFloat); a.F != 1 {
					t.Errorf("%s: sample.float.one = %v", where, a.F)
				}
			case pmidSampleStringHullo:
				if a := extract(t, where, s, pcp.TypeString); a.CP != "hullo world!" {
					t.Errorf("%s: sample.string.hullo = %q", where, a.CP)
				}
			case pmidSampleAggregate:
				if a := extract(t, where, s, pcp.TypeAggregate); a.VBP == nil || string(a.VBP.Data) != "hullo world!" {
					t.Errorf("%s: sample.aggregate.hullo = %+v", where, a.VBP)
				}
			case pmidSampleColour:
				for _, v := range s.Values {
					if s.ValFmt != pcp.ValInSitu || v.Inst < 0 || v.Inst > 2 {
						t.Errorf("%s: sample.colour instance %d (valfmt %d)", where, v.Inst, s.ValFmt)
					}
				}
			case pmidSampleEvents, pmidSampleHighResEvent:
				highres := s.PMID == pmidSampleHighResEvent
				for _, v := range s.Values {
					want := pcp.TypeEvent
					if highres {
						want = pcp.TypeHighResEvent
					}
					if v.Block.Type != want {
						t.Errorf("%s: %v: block type %d", where, s.PMID, v.Block.Type)
						continue
					}
					n, params, ok := walkEvents(v.Block.Data, highres)
					if !ok || n > 100 {
						t.Errorf("%s: %v: %d event records do not parse in host order: %x", where, s.PMID, n, v.Block.Data)
					}
					for _, pm := range params {
						if pm.Domain() != 29 {
							t.Errorf("%s: %v: event parameter %v outside the sample domain", where, s.PMID, pm)
						}
					}
				}
			}
		}
	}
	if seen[pmidSampleLongOne] == 0 {
		t.Error("no captured result holds sample.long.one")
	}
	for _, pm := range []pcp.PMID{pmidSampleLongLongOne, pmidSampleDoubleOne, pmidSampleFloatOne,
		pmidSampleStringHullo, pmidSampleEvents, pmidSampleHighResEvent} {
		if seen[pm] == 0 {
			t.Logf("no captured result holds %d.%d.%d", pm.Domain(), pm.Cluster(), pm.Item())
		}
	}
}

// mixedResult has every kind of value set: in-situ values with and
// without instances, each numeric block type, a string, an aggregate, an
// empty set, an error set and event records of both kinds.
func mixedResult() *pcp.Result {
	ne := binary.NativeEndian
	u64 := func(v uint64) []byte { return ne.AppendUint64(nil, v) }
	events := func(highres bool) []byte {
		// One record with a 32-bit and a double parameter, then one
		// that reports 3 missed records (0 in the high-resolution form,
		// which is how libpcp puts that count on the wire; see
		// TestHighResMissedCountOnWire).
		b := ne.AppendUint32(nil, 2)
		if highres {
			b = ne.AppendUint64(b, 1700000000)
			b = ne.AppendUint64(b, 123456789)
		} else {
			b = ne.AppendUint32(b, 1700000000)
			b = ne.AppendUint32(b, 123456)
		}
		b = ne.AppendUint32(b, 1) // PM_EVENT_FLAG_POINT
		b = ne.AppendUint32(b, 2)
		b = ne.AppendUint32(b, uint32(pcp.NewPMID(29, 0, 137)))
		b = ne.AppendUint32(b, uint32(pcp.Type32)<<24|8)
		b = ne.AppendUint32(b, 0xfffffff2)
		b = ne.AppendUint32(b, uint32(pcp.NewPMID(29, 0, 138)))
		b = ne.AppendUint32(b, uint32(pcp.TypeDouble)<<24|12)
		b = ne.AppendUint64(b, math.Float64bits(-9))
		if highres {
			b = ne.AppendUint64(b, 1700000001)
			b = ne.AppendUint64(b, 0)
		} else {
			b = ne.AppendUint32(b, 1700000001)
			b = ne.AppendUint32(b, 0)
		}
		b = ne.AppendUint32(b, eventFlagMissed)
		if highres {
			b = ne.AppendUint32(b, 0)
		} else {
			b = ne.AppendUint32(b, 3)
		}
		return b
	}
	return &pcp.Result{
		Timestamp: pcp.Timestamp{Sec: 1700000000, Nsec: 123456000},
		Sets: []pcp.ValueSet{
			{PMID: pmidSampleLongOne, NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 1}}},
			{PMID: pmidSampleColour, NumVal: 3, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: 0, LVal: 101}, {Inst: 1, LVal: -202}, {Inst: 2, LVal: 303}}},
			{PMID: pmidSampleLongLongOne, NumVal: 1, ValFmt: pcp.ValDPtr, Values: []pcp.Value{{Inst: pcp.InstNull, Block: pcp.ValueBlock{Type: pcp.Type64, Data: u64(1)}}}},
			{PMID: pmidSampleDoubleOne, NumVal: 2, ValFmt: pcp.ValDPtr, Values: []pcp.Value{
				{Inst: 5, Block: pcp.ValueBlock{Type: pcp.TypeDouble, Data: u64(math.Float64bits(1.5))}},
				{Inst: 6, Block: pcp.ValueBlock{Type: pcp.TypeU64, Data: u64(1 << 60)}},
			}},
			{PMID: pmidSampleFloatOne, NumVal: 1, ValFmt: pcp.ValDPtr, Values: []pcp.Value{{Inst: pcp.InstNull, Block: pcp.ValueBlock{Type: pcp.TypeFloat, Data: ne.AppendUint32(nil, math.Float32bits(-2.5))}}}},
			{PMID: pmidSampleStringHullo, NumVal: 1, ValFmt: pcp.ValDPtr, Values: []pcp.Value{{Inst: pcp.InstNull, Block: pcp.ValueBlock{Type: pcp.TypeString, Data: []byte("hullo world!\x00")}}}},
			{PMID: pmidSampleAggregate, NumVal: 1, ValFmt: pcp.ValSPtr, Values: []pcp.Value{{Inst: pcp.InstNull, Block: pcp.ValueBlock{Type: pcp.TypeAggregate, Data: []byte("hullo world!")}}}},
			{PMID: pcp.NewPMID(29, 0, 200), NumVal: 0},
			{PMID: pcp.NewPMID(29, 0, 201), NumVal: int32(pcp.ErrPMID)},
			{PMID: pmidSampleEvents, NumVal: 1, ValFmt: pcp.ValSPtr, Values: []pcp.Value{{Inst: 1, Block: pcp.ValueBlock{Type: pcp.TypeEvent, Data: events(false)}}}},
			{PMID: pmidSampleHighResEvent, NumVal: 1, ValFmt: pcp.ValSPtr, Values: []pcp.Value{{Inst: 1, Block: pcp.ValueBlock{Type: pcp.TypeHighResEvent, Data: events(true)}}}},
		},
	}
}

// sameResult compares two results value by value.
func sameResult(t *testing.T, got, want *pcp.Result) {
	t.Helper()
	if got.Timestamp != want.Timestamp || len(got.Sets) != len(want.Sets) {
		t.Fatalf("got %v with %d sets, want %v with %d", got.Timestamp, len(got.Sets), want.Timestamp, len(want.Sets))
	}
	for i := range want.Sets {
		g, w := &got.Sets[i], &want.Sets[i]
		if g.PMID != w.PMID || g.NumVal != w.NumVal || len(g.Values) != len(w.Values) || (w.NumVal > 0 && g.ValFmt != w.ValFmt) {
			t.Errorf("set %d: got %v numval %d valfmt %d, want %v numval %d valfmt %d", i, g.PMID, g.NumVal, g.ValFmt, w.PMID, w.NumVal, w.ValFmt)
			continue
		}
		for j := range w.Values {
			gv, wv := &g.Values[j], &w.Values[j]
			if gv.Inst != wv.Inst || (w.ValFmt == pcp.ValInSitu && gv.LVal != wv.LVal) ||
				(w.ValFmt != pcp.ValInSitu && (gv.Block.Type != wv.Block.Type || !bytes.Equal(gv.Block.Data, wv.Block.Data))) {
				t.Errorf("set %d value %d: got %+v, want %+v", i, j, *gv, *wv)
			}
		}
	}
}

func TestResultRoundTrip(t *testing.T) {
	want := mixedResult()
	b := AppendResult(nil, 42, want)
	got := new(pcp.Result)
	if err := DecodeResultInto(got, b); err != nil {
		t.Fatal(err)
	}
	sameResult(t, got, want)
	if again := AppendResult(nil, 42, got); !bytes.Equal(again, b) {
		t.Errorf("re-encoding differs:\n%x\n%x", again, b)
	}
	// The message form and the dispatcher give the same.
	m, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	sameResult(t, &m.(*Result).Result, want)
}

// TestResultWireForm checks the encoding of blocks in a tiny result: a
// 64-bit value in network order at the word offset the value points to,
// and '~' padding after a string.
func TestResultWireForm(t *testing.T) {
	r := &pcp.Result{Sets: []pcp.ValueSet{
		{PMID: 1, NumVal: 2, ValFmt: pcp.ValDPtr, Values: []pcp.Value{
			{Inst: 7, Block: pcp.ValueBlock{Type: pcp.TypeU64, Data: binary.NativeEndian.AppendUint64(nil, 0x0102030405060708)}},
			{Inst: 8, Block: pcp.ValueBlock{Type: pcp.TypeString, Data: []byte("ab\x00")}},
		}},
	}}
	b := AppendResult(nil, 0, r)
	// header 12, timestamp 8, numpmid 4, pmid 4, numval 4, valfmt 4,
	// two (inst, offset) pairs 16: the first block is at byte 52.
	const first = 52
	if got := binary.BigEndian.Uint32(b[40:]); got != first/4 {
		t.Fatalf("first block offset %d words, want %d", got, first/4)
	}
	if got := binary.BigEndian.Uint32(b[48:]); got != (first+12)/4 {
		t.Fatalf("second block offset %d words, want %d", got, (first+12)/4)
	}
	want := []byte{
		byte(pcp.TypeU64), 0, 0, 12, 1, 2, 3, 4, 5, 6, 7, 8,
		byte(pcp.TypeString), 0, 0, 7, 'a', 'b', 0, '~',
	}
	if !bytes.Equal(b[first:], want) {
		t.Errorf("blocks\n%x\nwant\n%x", b[first:], want)
	}
}

// TestDecodeResultIntoNoAlloc decodes the same PDUs into one Result again
// and again: once its storage has grown, nothing is allocated, and Reset
// keeps that storage.
func TestDecodeResultIntoNoAlloc(t *testing.T) {
	b := AppendResult(nil, 0, mixedResult())
	hb := AppendHighResResult(nil, 0, mixedResult())
	r := new(pcp.Result)
	if err := DecodeResultInto(r, b); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(50, func() {
		r.Reset()
		if err := DecodeResultInto(r, b); err != nil {
			t.Fatal(err)
		}
		if err := DecodeHighResResultInto(r, hb); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per decode into a used Result", allocs)
	}
	sameResult(t, r, mixedResult())
}

// TestDecodeResultBlocksOutOfPlace decodes blocks that are not laid out
// one after another in value order, as PCP's encoders lay them out: each
// value must still get its own copy of its block, swapped once, even when
// two values share one block.
func TestDecodeResultBlocksOutOfPlace(t *testing.T) {
	// One set of two pointer values: the vlists end at byte 52 (word 13),
	// where two U64 blocks of 12 bytes lie, at words 13 and 16.
	u64 := uint32(pcp.TypeU64)<<24 | 12
	blocks := []uint32{u64, 0, 1, u64, 0, 2}
	for _, tt := range []struct {
		name     string
		off0     uint32
		off1     uint32
		want0    uint64
		want1    uint64
		prevUsed bool
	}{
		{"in order", 13, 16, 1, 2, false},
		{"reversed", 16, 13, 2, 1, false},
		{"shared", 13, 13, 1, 1, false},
		{"shared second", 16, 16, 2, 2, true},
	} {
		pdu := resultPDU(1, append([]uint32{5, 2, uint32(pcp.ValDPtr), 0, tt.off0, 1, tt.off1}, blocks...)...)
		in := bytes.Clone(pdu)
		for _, r := range []*pcp.Result{new(pcp.Result), usedResult(t)} {
			err := DecodeResultInto(r, pdu)
			if tt.name == "shared second" {
				// The first block is not referenced: the region does not
				// start with a block.
				if err == nil {
					t.Errorf("%s: decoded", tt.name)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if !bytes.Equal(pdu, in) {
				t.Fatalf("%s: decoding changed the PDU", tt.name)
			}
			vs := r.Sets[0].Values
			for j, want := range []uint64{tt.want0, tt.want1} {
				d := vs[j].Block.Data
				if vs[j].Block.Type != pcp.TypeU64 || len(d) != 8 || binary.NativeEndian.Uint64(d) != want {
					t.Errorf("%s: value %d: type %d data %x, want %d", tt.name, j, vs[j].Block.Type, d, want)
				}
				if cap(d) != len(d) {
					t.Errorf("%s: value %d: Data has room for %d bytes after it", tt.name, j, cap(d)-len(d))
				}
			}
			vs[0].Block.Data[0] ^= 0xff
			if binary.NativeEndian.Uint64(vs[1].Block.Data) != tt.want1 {
				t.Errorf("%s: the values share their bytes", tt.name)
			}
		}
	}
}

// usedResult is a Result that has held a decoded result, so that its
// storage is reused.
func usedResult(t *testing.T) *pcp.Result {
	t.Helper()
	r := new(pcp.Result)
	if err := DecodeResultInto(r, AppendResult(nil, 0, mixedResult())); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestDecodeResultArena checks that decoding keeps its value blocks in
// the Result's arena, that Reset keeps the arena, and that values are
// copies, not views of the PDU.
func TestDecodeResultArena(t *testing.T) {
	b := AppendResult(nil, 0, mixedResult())
	r := usedResult(t)
	arena := r.Arena(0)
	if cap(arena) == 0 {
		t.Fatal("decoding value blocks left the arena empty")
	}
	r.Reset()
	if err := DecodeResultInto(r, b); err != nil {
		t.Fatal(err)
	}
	if got := r.Arena(0); cap(got) != cap(arena) || &got[:1][0] != &arena[:1][0] {
		t.Error("Reset or a decode of the same size replaced the arena")
	}
	whole := arena[:cap(arena)]
	for _, s := range r.Sets {
		for _, v := range s.Values {
			if s.ValFmt == pcp.ValInSitu {
				if v.Block.Data != nil {
					t.Errorf("%v: in-situ value with block data %x", s.PMID, v.Block.Data)
				}
				continue
			}
			if !within(v.Block.Data, whole) {
				t.Errorf("%v: block data outside the arena", s.PMID)
			}
			if within(v.Block.Data, b) {
				t.Errorf("%v: block data inside the PDU", s.PMID)
			}
		}
	}
	if got := r.Arena(-1); len(got) != 0 {
		t.Errorf("Arena(-1) has %d bytes", len(got))
	}
}

// within says whether the bytes of sub lie in those of buf.
func within(sub, buf []byte) bool {
	if len(sub) == 0 || len(buf) == 0 {
		return false
	}
	p, lo, hi := uintptr(unsafe.Pointer(&sub[0])), uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&buf[len(buf)-1]))
	return p >= lo && p <= hi
}

// TestDecodeResultIntoReuse decodes results of different shapes into one
// Result: nothing of an earlier, larger result may show through.
func TestDecodeResultIntoReuse(t *testing.T) {
	big := mixedResult()
	small := &pcp.Result{Sets: []pcp.ValueSet{
		{PMID: pmidSampleLongLongOne, NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: 3, LVal: 4}}},
		{PMID: pmidSampleStringHullo, NumVal: 1, ValFmt: pcp.ValDPtr, Values: []pcp.Value{{Inst: 0, Block: pcp.ValueBlock{Type: pcp.TypeString, Data: []byte("x\x00")}}}},
	}}
	r := new(pcp.Result)
	for _, want := range []*pcp.Result{big, small, big, small} {
		if err := DecodeResultInto(r, AppendResult(nil, 0, want)); err != nil {
			t.Fatal(err)
		}
		sameResult(t, r, want)
	}
}

// resultPDU builds a RESULT by hand: sets is the body after numpmid,
// given as 32-bit words.
func resultPDU(numpmid int32, words ...uint32) []byte {
	b := AppendHeader(nil, Header{Type: TypeResult})
	b = appendU32(b, 0)
	b = appendU32(b, 0)
	b = appendI32(b, numpmid)
	for _, w := range words {
		b = appendU32(b, w)
	}
	binary.BigEndian.PutUint32(b, uint32(len(b)))
	return b
}

// TestResultTimestampUnchecked: libpcp takes a RESULT's microseconds as
// they come, and PCP's pmstore has been seen to send -99185 through
// PCP's pmcd to an agent, which stored the value. The instant is kept,
// carried into the seconds.
func TestResultTimestampUnchecked(t *testing.T) {
	for _, tc := range []struct {
		sec, usec int32
		want      pcp.Timestamp
	}{
		{100, -99185, pcp.Timestamp{Sec: 99, Nsec: 900815000}},
		{100, 1000000, pcp.Timestamp{Sec: 101}},
		{100, -1, pcp.Timestamp{Sec: 99, Nsec: 999999000}},
		{0, -2147483648, pcp.Timestamp{Sec: -2148, Nsec: 516352000}},
		{5, 999999, pcp.Timestamp{Sec: 5, Nsec: 999999000}},
	} {
		b := resultPDU(0)
		binary.BigEndian.PutUint32(b[12:], uint32(tc.sec))
		binary.BigEndian.PutUint32(b[16:], uint32(tc.usec))
		var r pcp.Result
		if err := DecodeResultInto(&r, b); err != nil {
			t.Errorf("%d s %d µs: %v", tc.sec, tc.usec, err)
			continue
		}
		if r.Timestamp != tc.want {
			t.Errorf("%d s %d µs: %+v, want %+v", tc.sec, tc.usec, r.Timestamp, tc.want)
		}
	}
}

func TestResultDecodeBad(t *testing.T) {
	// A valid one-set, one-value pointer result: vlists end at byte 44,
	// the block is at word 11.
	ok := resultPDU(1, 5, 1, 1, 0, 11, uint32(pcp.TypeU32)<<24|8, 9)
	if err := DecodeResultInto(new(pcp.Result), ok); err != nil {
		t.Fatalf("valid hand-made result: %v", err)
	}
	shared := []uint32{5, 3, 1, 0, 15, 0, 15, 0, 15, uint32(pcp.TypeU32)<<24 | 8, 9, 0, 0}
	expectIPC(t, new(Result), map[string][]byte{
		"negative numpmid":       resultPDU(-1),
		"numpmid too big":        resultPDU(2, 5, 0),
		"valfmt 3":               resultPDU(1, 5, 1, 3, 0, 1),
		"numval too big":         resultPDU(1, 5, 2, 0, 0, 1),
		"huge numval":            resultPDU(1, 5, 0x7fffffff, 0, 0, 1),
		"offset into vlists":     resultPDU(1, 5, 1, 1, 0, 10, uint32(pcp.TypeU32)<<24|8, 9),
		"offset past end":        resultPDU(1, 5, 1, 1, 0, 13, uint32(pcp.TypeU32)<<24|8, 9),
		"huge offset":            resultPDU(1, 5, 1, 1, 0, 0xffffffff, uint32(pcp.TypeU32)<<24|8, 9),
		"vlen under header":      resultPDU(1, 5, 1, 1, 0, 11, uint32(pcp.TypeU32)<<24|3, 9),
		"vlen past end":          resultPDU(1, 5, 1, 1, 0, 11, uint32(pcp.TypeU32)<<24|12, 9),
		"bytes after blocks":     resultPDU(1, 5, 1, 1, 0, 11, uint32(pcp.TypeU32)<<24|8, 9, 0),
		"gap before block":       resultPDU(1, 5, 1, 1, 0, 12, 0, uint32(pcp.TypeU32)<<24|4),
		"short 64-bit block":     resultPDU(1, 5, 1, 1, 0, 11, uint32(pcp.Type64)<<24|8, 9),
		"short float block":      resultPDU(1, 5, 1, 1, 0, 11, uint32(pcp.TypeFloat)<<24|4),
		"event count overrun":    resultPDU(1, 5, 1, 1, 0, 11, uint32(pcp.TypeEvent)<<24|8, 1),
		"event param overrun":    resultPDU(1, 5, 1, 1, 0, 11, uint32(pcp.TypeEvent)<<24|24, 1, 0, 0, 0, 1),
		"values share a block":   resultPDU(1, shared...),
		"bytes after insitu set": resultPDU(1, 5, 1, 0, 0, 1, 0),
		"wrong type":             mustPDU(&HighResResult{}, 0),
	})
	// An error set and an empty set carry no value format.
	var r pcp.Result
	errPMID := int32(pcp.ErrPMID)
	if err := DecodeResultInto(&r, resultPDU(2, 5, uint32(errPMID), 6, 0)); err != nil {
		t.Fatal(err)
	}
	if r.Sets[0].NumVal != int32(pcp.ErrPMID) || !errors.Is(r.Sets[0].Err(), pcp.ErrPMID) || r.Sets[1].NumVal != 0 {
		t.Errorf("decoded %+v", r.Sets)
	}
}

func FuzzDecodeResult(f *testing.F) {
	fuzzCodec[Result](f, TypeResult,
		AppendResult(nil, 0, mixedResult()),
		resultPDU(1, 5, 1, 1, 0, 11, uint32(pcp.TypeU32)<<24|8, 9))
}
