package pmda

import (
	"encoding/binary"
	"math"

	"github.com/gopcp/gopcp/pcp"
)

// stuff turns the Atom of a value of type t into v, as PCP packs a value
// for a result: 32-bit integers in place, everything else in a value block
// whose bytes (numbers in host order) are carved from *arena. It returns
// the value's format: PM_VAL_INSITU in place, PM_VAL_SPTR for static
// aggregates and event records (libpcp_pmda sends them from the agent's
// own block, and PCP's pmcd and pmlogger pass that format on), else
// PM_VAL_DPTR; or pcp.ErrType for a type that has no value (such as
// pcp.TypeNoSupport) and pcp.ErrValue for an aggregate or event value
// without a block.
func stuff(arena *[]byte, v *pcp.Value, t pcp.Type, a *pcp.Atom) (pcp.ValFmt, error) {
	var n int
	switch t {
	case pcp.Type32:
		v.LVal = a.L
		return pcp.ValInSitu, nil
	case pcp.TypeU32:
		v.LVal = int32(a.UL)
		return pcp.ValInSitu, nil
	case pcp.Type64, pcp.TypeU64, pcp.TypeDouble:
		n = 8
	case pcp.TypeFloat:
		n = 4
	case pcp.TypeString:
		n = len(a.CP) + 1 // PCP sends the NUL
	case pcp.TypeAggregate, pcp.TypeAggregateStatic, pcp.TypeEvent, pcp.TypeHighResEvent:
		if a.VBP == nil {
			return 0, pcp.ErrValue
		}
		n = len(a.VBP.Data)
	default:
		return 0, pcp.ErrType
	}
	if n > pcp.MaxValueLen-pcp.ValueHeaderSize {
		return 0, pcp.ErrTooBig
	}
	start := len(*arena)
	*arena = append(*arena, make([]byte, n)...)
	b := (*arena)[start : start+n : start+n]
	bt := t
	switch t {
	case pcp.Type64:
		binary.NativeEndian.PutUint64(b, uint64(a.LL))
	case pcp.TypeU64:
		binary.NativeEndian.PutUint64(b, a.ULL)
	case pcp.TypeDouble:
		binary.NativeEndian.PutUint64(b, math.Float64bits(a.D))
	case pcp.TypeFloat:
		binary.NativeEndian.PutUint32(b, math.Float32bits(a.F))
	case pcp.TypeString:
		copy(b, a.CP)
	default:
		copy(b, a.VBP.Data)
		bt = a.VBP.Type // the agent's own, as PCP keeps it
	}
	v.Block = pcp.ValueBlock{Type: bt, Data: b}
	switch t {
	case pcp.TypeAggregateStatic, pcp.TypeEvent, pcp.TypeHighResEvent:
		return pcp.ValSPtr, nil
	}
	return pcp.ValDPtr, nil
}
