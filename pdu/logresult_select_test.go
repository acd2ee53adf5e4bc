package pdu

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// selectRecord is a record of every kind of value set: in situ, blocks of
// numbers and strings, an error code, no values.
func selectRecord() *pcp.Result {
	u64 := make([]byte, 8)
	binary.NativeEndian.PutUint64(u64, 123456789012345)
	return &pcp.Result{
		Timestamp: pcp.Timestamp{Sec: 1700000000, Nsec: 1000},
		Sets: []pcp.ValueSet{
			{PMID: 1, NumVal: 2, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: 0, LVal: 7}, {Inst: 1, LVal: -8}}},
			{PMID: 2, NumVal: 2, ValFmt: pcp.ValDPtr, Values: []pcp.Value{
				{Inst: 3, Block: pcp.ValueBlock{Type: pcp.TypeString, Data: []byte("abc")}},
				{Inst: 4, Block: pcp.ValueBlock{Type: pcp.TypeString, Data: []byte("defgh")}}}},
			{PMID: 3, NumVal: -12357},
			{PMID: 4, NumVal: 0},
			{PMID: 5, NumVal: 1, ValFmt: pcp.ValDPtr, Values: []pcp.Value{{Inst: -1, Block: pcp.ValueBlock{Type: pcp.TypeU64, Data: u64}}}},
		},
	}
}

// filtered is r's value sets that keep accepts, as the full decoder
// gives them.
func filtered(r *pcp.Result, keep func(pcp.PMID) bool) []pcp.ValueSet {
	var out []pcp.ValueSet
	for _, s := range r.Sets {
		if keep(s.PMID) {
			out = append(out, s)
		}
	}
	return out
}

func TestDecodeLogRecordSelect(t *testing.T) {
	only := func(ids ...pcp.PMID) func(pcp.PMID) bool {
		return func(p pcp.PMID) bool {
			for _, id := range ids {
				if id == p {
					return true
				}
			}
			return false
		}
	}
	cases := []struct {
		name string
		keep func(pcp.PMID) bool
	}{
		{"all", func(pcp.PMID) bool { return true }},
		{"none", func(pcp.PMID) bool { return false }},
		{"in situ", only(1)},
		{"strings", only(2)},
		{"error and empty", only(3, 4)},
		{"u64 block after skipped blocks", only(5)},
		{"first and last", only(1, 5)},
	}
	for _, v3 := range []bool{false, true} {
		buf := AppendLogRecord(make([]byte, LogRecordPrefix), 0, selectRecord(), v3)
		var full pcp.Result
		if err := DecodeLogRecordInto(&full, buf, v3); err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s v3=%v", c.name, v3), func(t *testing.T) {
				var got pcp.Result
				n, err := DecodeLogRecordSelectInto(&got, buf, v3, c.keep)
				if err != nil {
					t.Fatal(err)
				}
				if n != 5 {
					t.Errorf("numpmid %d, want 5", n)
				}
				if got.Timestamp != full.Timestamp {
					t.Errorf("timestamp %v, want %v", got.Timestamp, full.Timestamp)
				}
				want := filtered(&full, c.keep)
				if len(got.Sets) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got.Sets, want)) {
					t.Errorf("sets\n got %+v\nwant %+v", got.Sets, want)
				}
			})
		}
	}
}

// TestDecodeLogRecordSelectMark: a <mark> record has no sets on disk,
// which the count says; a record with none kept has.
func TestDecodeLogRecordSelectMark(t *testing.T) {
	mark := AppendLogRecord(make([]byte, LogRecordPrefix), 0, &pcp.Result{Timestamp: pcp.Timestamp{Sec: 5}}, false)
	var r pcp.Result
	if n, err := DecodeLogRecordSelectInto(&r, mark, false, func(pcp.PMID) bool { return false }); err != nil || n != 0 || len(r.Sets) != 0 {
		t.Errorf("mark: %d sets on disk, %d kept, %v", n, len(r.Sets), err)
	}
}

// TestDecodeLogRecordSelectDamage: a record whose layout is bad is
// refused even when the damage lies in sets not kept.
func TestDecodeLogRecordSelectDamage(t *testing.T) {
	good := AppendLogRecord(make([]byte, LogRecordPrefix), 0, selectRecord(), false)
	// set 2's first pair: pmid, numval, valfmt, then (inst, offset)
	set2 := LogRecordPrefix + 12 + (8 + 4 + 2*8)
	off := set2 + 12 + 4
	keepFirst := func(p pcp.PMID) bool { return p == 1 }
	cases := []struct {
		name string
		edit func(b []byte)
	}{
		{"block offset past the end", func(b []byte) { binary.BigEndian.PutUint32(b[off:], uint32(len(b))) }},
		{"block offset inside the sets", func(b []byte) { binary.BigEndian.PutUint32(b[off:], uint32(LogRecordPrefix/4)) }},
		{"block length past the end", func(b []byte) {
			o := binary.BigEndian.Uint32(b[off:]) * 4
			binary.BigEndian.PutUint32(b[o:], uint32(pcp.TypeString)<<24|0xffff)
		}},
		{"block length short of the header", func(b []byte) {
			o := binary.BigEndian.Uint32(b[off:]) * 4
			binary.BigEndian.PutUint32(b[o:], uint32(pcp.TypeString)<<24|2)
		}},
		{"bytes after the blocks", func(b []byte) {}},
		{"numval past the end", func(b []byte) { binary.BigEndian.PutUint32(b[set2+4:], 1<<20) }},
		{"bad valfmt", func(b []byte) { binary.BigEndian.PutUint32(b[set2+8:], 7) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := append([]byte(nil), good...)
			if c.name == "bytes after the blocks" {
				b = append(b, 0, 0, 0, 0)
			}
			c.edit(b)
			var full, sel pcp.Result
			if err := DecodeLogRecordInto(&full, b, false); err == nil {
				t.Fatal("the full decoder accepts the damaged record")
			}
			if _, err := DecodeLogRecordSelectInto(&sel, b, false, keepFirst); err == nil {
				t.Error("damage in a set not kept passed")
			}
		})
	}
}

// FuzzDecodeLogRecordSelect: whatever the bytes, a record the full
// decoder accepts the selecting one accepts, giving the same sets; with
// every set kept, they refuse the same records.
func FuzzDecodeLogRecordSelect(f *testing.F) {
	for _, v3 := range []bool{false, true} {
		f.Add(AppendLogRecord(make([]byte, LogRecordPrefix), 0, selectRecord(), v3), v3, uint8(0x15))
	}
	f.Fuzz(func(t *testing.T, b []byte, v3 bool, mask uint8) {
		if len(b) < LogRecordPrefix {
			return
		}
		keep := func(p pcp.PMID) bool { return mask&(1<<(uint32(p)%8)) != 0 }
		all := func(pcp.PMID) bool { return true }
		var full, sel, selAll pcp.Result
		errFull := DecodeLogRecordInto(&full, append([]byte(nil), b...), v3)
		_, errSel := DecodeLogRecordSelectInto(&sel, append([]byte(nil), b...), v3, keep)
		_, errAll := DecodeLogRecordSelectInto(&selAll, append([]byte(nil), b...), v3, all)
		if (errFull == nil) != (errAll == nil) {
			t.Fatalf("full decoder %v, selecting every set %v", errFull, errAll)
		}
		// selectFast and the checking loop alone find the same fault at
		// the same place, and the same sets
		slowSelect = true
		var slow pcp.Result
		_, errSlow := DecodeLogRecordSelectInto(&slow, append([]byte(nil), b...), v3, keep)
		slowSelect = false
		if fmt.Sprint(errSlow) != fmt.Sprint(errSel) || !sameSets(slow.Sets, sel.Sets) {
			t.Fatalf("fast loop: %v, %+v\nchecking loop: %v, %+v", errSel, sel.Sets, errSlow, slow.Sets)
		}
		// the sorted list of PMIDs keeps the sets the func does
		var ids []pcp.PMID
		for _, s := range full.Sets {
			if keep(s.PMID) {
				ids = append(ids, s.PMID)
			}
		}
		slices.Sort(ids)
		var byID pcp.Result
		_, errByID := DecodeLogRecordSelectPMIDsInto(&byID, append([]byte(nil), b...), v3, slices.Compact(ids))
		if errFull == nil && (errByID != nil || !sameSets(byID.Sets, sel.Sets)) {
			t.Fatalf("by PMID: %v, %+v\nby func: %+v", errByID, byID.Sets, sel.Sets)
		}
		if errFull != nil {
			return
		}
		if errSel != nil {
			t.Fatalf("full decoder accepts, selecting refuses: %v", errSel)
		}
		want := filtered(&full, keep)
		if len(sel.Sets) != len(want) || (len(want) > 0 && !reflect.DeepEqual(sel.Sets, want)) {
			t.Fatalf("sets\n got %+v\nwant %+v", sel.Sets, want)
		}
	})
}

// sameSets compares decoded sets, an empty list with none.
func sameSets(a, b []pcp.ValueSet) bool {
	return (len(a) == 0 && len(b) == 0) || reflect.DeepEqual(a, b)
}
