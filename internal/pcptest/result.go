package pcptest

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gopcp/gopcp/pcp"
)

// MixedResult is a realistic fetch answer for benchmarks: 100 metrics of
// 10 instances each, a quarter each of in-situ 32-bit values, unsigned
// 64-bit blocks, double blocks and string blocks. Numbers in blocks are in
// host order, as decoded results hold them.
func MixedResult() *pcp.Result {
	ne := binary.NativeEndian
	r := &pcp.Result{Timestamp: pcp.Timestamp{Sec: 1700000000, Nsec: 250000000}}
	for m := range 100 {
		s := pcp.ValueSet{PMID: pcp.NewPMID(60, uint32(m/10), uint32(m%10)), NumVal: 10, ValFmt: pcp.ValDPtr}
		if m%4 == 0 {
			s.ValFmt = pcp.ValInSitu
		}
		for i := range 10 {
			v := pcp.Value{Inst: int32(i)}
			switch m % 4 {
			case 0:
				v.LVal = int32(m*1000 + i)
			case 1:
				v.Block = pcp.ValueBlock{Type: pcp.TypeU64, Data: ne.AppendUint64(nil, uint64(m)<<40|uint64(i))}
			case 2:
				v.Block = pcp.ValueBlock{Type: pcp.TypeDouble, Data: ne.AppendUint64(nil, math.Float64bits(float64(m)+float64(i)/10))}
			case 3:
				v.Block = pcp.ValueBlock{Type: pcp.TypeString, Data: fmt.Appendf(nil, "/dev/sd%c%d\x00", 'a'+m%26, i)}
			}
			s.Values = append(s.Values, v)
		}
		r.Sets = append(r.Sets, s)
	}
	return r
}
