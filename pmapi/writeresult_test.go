package pmapi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// fmtResult is writeResult as fmt writes it, the text
// testdata/harness/archwalk.c prints.
func fmtResult(b *strings.Builder, r *pcp.Result) {
	fmt.Fprintf(b, "T %d.%09d %d\n", r.Timestamp.Sec, r.Timestamp.Nsec, len(r.Sets))
	for _, vs := range r.Sets {
		fmt.Fprintf(b, "  %s %d", vs.PMID, vs.NumVal)
		for _, v := range vs.Values[:max(vs.NumVal, 0)] {
			if vs.ValFmt == pcp.ValInSitu {
				fmt.Fprintf(b, " %d=%d", v.Inst, v.LVal)
			} else {
				fmt.Fprintf(b, " %d=%x", v.Inst, v.Block.Data)
			}
		}
		b.WriteByte('\n')
	}
}

// TestWriteResultAsFmt: writeResult, which appends by hand, writes what
// fmt writes, for every kind of set and the edges of each number.
func TestWriteResultAsFmt(t *testing.T) {
	block := pcp.ValueBlock{Data: []byte{0, 0x0f, 0xa0, 0xff}}
	for _, r := range []pcp.Result{
		{},
		{Timestamp: pcp.Timestamp{Sec: 1101350400, Nsec: 7}},
		{Timestamp: pcp.Timestamp{Sec: -1, Nsec: 999999999}},
		{Timestamp: pcp.Timestamp{Sec: 1 << 40, Nsec: -5}},
		{Timestamp: pcp.Timestamp{Sec: -1 << 63, Nsec: 1000000000}},
		{Timestamp: pcp.Timestamp{Sec: 1, Nsec: 1<<31 - 1}, Sets: []pcp.ValueSet{
			{PMID: pcp.PMIDNull, NumVal: int32(pcp.ErrPMID)},
			{PMID: pcp.NewPMID(60, 2, 0), NumVal: 0},
			{PMID: pcp.NewPMID(29, 0, 6), NumVal: 3, ValFmt: pcp.ValInSitu, Values: []pcp.Value{
				{Inst: -1, LVal: -1 << 31}, {Inst: 0, LVal: 1<<31 - 1}, {Inst: 1 << 30, LVal: 0}}},
			{PMID: pcp.NewPMID(511, 4095, 1023), NumVal: 2, ValFmt: pcp.ValDPtr, Values: []pcp.Value{
				{Inst: 5, Block: block}, {Inst: -1 << 31, Block: pcp.ValueBlock{}}}},
		}},
	} {
		var want, got strings.Builder
		fmtResult(&want, &r)
		writeResult(&got, &r)
		if got.String() != want.String() {
			t.Errorf("writeResult wrote\n%s\nfmt\n%s", got.String(), want.String())
		}
	}
}
