package series

import (
	"math"
	"strconv"
	"time"

	"github.com/gopcp/gopcp/internal/cstrtod"
	"github.com/gopcp/gopcp/internal/webid"
	"github.com/gopcp/gopcp/pcp"
)

// SchemaVersion is the schema this package reads and writes, the value of
// pcp:version:schema.
const SchemaVersion = 2

// streamID is a record's time as a stream entry ID:
// <milliseconds>-<microseconds within the millisecond>.
func streamID(t pcp.Timestamp) string {
	ms := uint64(t.Sec)*1000 + uint64(t.Nsec)/1000000
	frac := uint64(t.Nsec) % 1000000 / 1000
	b := strconv.AppendUint(make([]byte, 0, 24), ms, 10)
	b = append(b, '-')
	return string(strconv.AppendUint(b, frac, 10))
}

// parseStreamID reads a stream entry ID back into a time as libpcp_web
// does (extract_time): the milliseconds and, after a '-', the fraction
// are C strtoull in base 0, nothing refused (no digits read as 0), and
// the fraction counts microseconds added to the milliseconds, so that
// one of a million or more carries into the seconds rather than being
// cut (libpcp_web leaves it in the nanoseconds, which its sampling
// compares as a difference of times).
func parseStreamID(s string) pcp.Timestamp {
	ms, end, _ := cstrtod.ParseUint(s, 0)
	var frac uint64
	if end < len(s) && s[end] == '-' {
		frac, _, _ = cstrtod.ParseUint(s[end+1:], 0)
	}
	// C's unsigned arithmetic, then the sum as a signed long.
	nsec := int64(frac*1000 + ms%1000*1000000)
	sec := int64(ms/1000) + nsec/1e9
	nsec %= 1e9
	if nsec < 0 {
		sec, nsec = sec-1, nsec+1e9
	}
	return pcp.Timestamp{Sec: sec, Nsec: int32(nsec)}
}

// startSet says whether a window's start sets the sampling's first goal:
// libpcp_web takes a start of 0 seconds and 0 nanoseconds, the epoch, for
// none, and starts from the first sample.
func startSet(t time.Time) bool { return !t.IsZero() && (t.Unix() != 0 || t.Nanosecond() != 0) }

// formatValue is a value as a stream field holds it: C's %d/%u forms for
// integers, %e for floating point, and strings and aggregates JSON-quoted
// by webid.AppendUnicode, PM_ERR_NYI for event records (as libpcp_web writes).
// ok is false for a type PCP has no value text for. Numbers are cut from
// ar when it is not nil.
func formatValue(ar *arena, vs *pcp.ValueSet, v *pcp.Value, typ pcp.Type) (string, bool) {
	var b []byte
	if ar != nil {
		b = ar.room(32)
	}
	b, ok := appendValue(b, vs, v, typ)
	if !ok {
		return "", false
	}
	if ar != nil {
		return ar.keep(b), true
	}
	return string(b), true
}

// appendValue appends a value's text as formatValue gives it to b.
func appendValue(b []byte, vs *pcp.ValueSet, v *pcp.Value, typ pcp.Type) ([]byte, bool) {
	switch typ {
	case pcp.TypeString, pcp.TypeAggregate, pcp.TypeAggregateStatic:
		if vs.ValFmt == pcp.ValInSitu || v.Block.Data == nil {
			return append(b, `""`...), true
		}
		d := v.Block.Data
		if typ == pcp.TypeString && len(d) > 0 {
			d = d[:len(d)-1] // the terminating NUL
		}
		return webid.AppendUnicode(b, d), true
	case pcp.TypeEvent, pcp.TypeHighResEvent:
		// libpcp_web unpacks event records but writes PM_ERR_NYI for them
		return strconv.AppendInt(b, int64(pcp.ErrNYI), 10), true
	}
	a, err := pcp.ExtractValue(vs.ValFmt, v, typ, typ)
	if err != nil {
		return strconv.AppendInt(b, int64(pcp.ErrNYI), 10), true
	}
	switch typ {
	case pcp.Type32:
		b = strconv.AppendInt(b, int64(a.L), 10)
	case pcp.TypeU32:
		b = strconv.AppendUint(b, uint64(a.UL), 10)
	case pcp.Type64:
		b = strconv.AppendInt(b, a.LL, 10)
	case pcp.TypeU64:
		b = strconv.AppendUint(b, a.ULL, 10)
	case pcp.TypeFloat, pcp.TypeDouble:
		x := a.D
		if typ == pcp.TypeFloat {
			x = float64(a.F)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return append(b, pcp.FormatFloat(x, 'e', 6)...), true
		}
		b = strconv.AppendFloat(b, x, 'e', 6, 64)
	default:
		b = strconv.AppendInt(b, int64(pcp.ErrNYI), 10)
	}
	return b, true
}
