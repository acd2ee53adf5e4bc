package fetchgroup

import (
	"context"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// FuzzPrepare checks that any scale string for any units is either
// refused with an error or gives a conversion that converts a value
// without panicking.
func FuzzPrepare(f *testing.F) {
	for _, s := range []string{"", "rate", "instant", "kbyte", "count/sec", "2 kbyte/min", "sec/sec", "byte^-2", "x 10^6 /hour", "1e400 byte"} {
		f.Add(s, uint32(0x01100000), uint8(1))
	}
	f.Fuzz(func(t *testing.T, scale string, units uint32, sem uint8) {
		d := pcp.Desc{Type: pcp.TypeDouble, Sem: pcp.Sem(sem % 5), Units: pcp.UnpackUnits(units), InDom: pcp.InDomNull}
		c, err := prepare(d, scale, pcp.TypeU64)
		if err != nil {
			return
		}
		g := &Group{}
		cur := &sample{sets: []pcp.ValueSet{{PMID: 1, NumVal: 1, ValFmt: pcp.ValDPtr,
			Values: []pcp.Value{{Inst: pcp.InstNull, Block: pcp.ValueBlock{Type: pcp.TypeDouble, Data: make([]byte, 8)}}}}}, ts: pcp.Timestamp{Sec: 2}}
		g.prev = &sample{sets: cur.sets, ts: pcp.Timestamp{Sec: 1}}
		g.value(cur, 0, 1, &d, pcp.InstNull, &c, pcp.TypeU64, nowhere)
	})
}

// FuzzEventField feeds arbitrary bytes as an event array value to an
// event field handle: it must report an error or fields, no more than
// the bytes can hold, never panic.
func FuzzEventField(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0, 7, 0, 0, 0}, false)
	f.Add([]byte{0, 0, 0, 0}, true)
	f.Fuzz(func(t *testing.T, data []byte, highres bool) {
		typ := pcp.TypeEvent
		if highres {
			typ = pcp.TypeHighResEvent
		}
		h := &Event[string]{desc: pcp.Desc{Type: typ, InDom: pcp.InDomNull}, field: 1,
			fieldDesc: pcp.Desc{PMID: 1, Type: pcp.Type32, InDom: pcp.InDomNull}, out: pcp.TypeString}
		s := &sample{sets: []pcp.ValueSet{{PMID: 0, NumVal: 1, ValFmt: pcp.ValDPtr,
			Values: []pcp.Value{{Inst: pcp.InstNull, Block: pcp.ValueBlock{Type: typ, Data: data}}}}}}
		h.clear()
		h.fill(context.Background(), &Group{}, s)
		// Without a maximum, the bytes bound the fields: each occurrence
		// takes a parameter header of 8 bytes at least.
		if h.Len() > len(data)/8 {
			t.Fatalf("%d fields from %d bytes", h.Len(), len(data))
		}
	})
}
