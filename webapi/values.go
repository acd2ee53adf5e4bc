package webapi

import (
	"strconv"

	"github.com/gopcp/gopcp/internal/webid"
	"github.com/gopcp/gopcp/pcp"
)

// zeroValue is what pmproxy prints for a singular metric never fetched
// with a value: its zeroed atom, encoded.
func zeroValue(t pcp.Type) string {
	switch t {
	case pcp.Type32, pcp.TypeU32, pcp.Type64, pcp.TypeU64, pcp.TypeFloat, pcp.TypeDouble:
		return "0"
	}
	return "null"
}

// encodeValue is one value as pmproxy's JSON and OpenMetrics have it
// (webgroup_encode_value): integers in decimal, floats with 8 and doubles
// with 16 significant digits, strings and aggregates as JSON strings
// (unicode_encode), anything else null.
func encodeValue(vs *pcp.ValueSet, v *pcp.Value, t pcp.Type) (string, bool) {
	switch t {
	case pcp.TypeString, pcp.TypeAggregate, pcp.TypeAggregateStatic:
		if vs.ValFmt == pcp.ValInSitu {
			return "", false
		}
		b := v.Block.Data
		if t == pcp.TypeString && len(b) > 0 {
			b = b[:len(b)-1]
		}
		return string(webid.AppendUnicode(nil, b)), true
	case pcp.TypeEvent, pcp.TypeHighResEvent:
		return "null", true
	}
	a, err := pcp.ExtractValue(vs.ValFmt, v, t, t)
	if err != nil {
		return "", false
	}
	switch t {
	case pcp.Type32:
		return strconv.FormatInt(int64(a.L), 10), true
	case pcp.TypeU32:
		return strconv.FormatUint(uint64(a.UL), 10), true
	case pcp.Type64:
		return strconv.FormatInt(a.LL, 10), true
	case pcp.TypeU64:
		return strconv.FormatUint(a.ULL, 10), true
	case pcp.TypeFloat:
		return pcp.FormatG(float64(a.F), 8), true
	case pcp.TypeDouble:
		return pcp.FormatG(a.D, 16), true
	}
	return "null", true
}

// addValueSet keeps a fetched value set in the metric, as
// pmwebapi_add_valueset does: every value marked stale first, then those
// fetched marked fresh; instances keep the order they were first seen in.
func addValueSet(m *metric, vs *pcp.ValueSet) {
	m.updated = false
	for _, v := range m.values {
		v.updated = false
	}
	if vs == nil || vs.NumVal <= 0 {
		return
	}
	m.updated = true
	if m.desc.InDom == pcp.InDomNull {
		if s, ok := encodeValue(vs, &vs.Values[0], m.desc.Type); ok {
			m.value = s
		} else {
			m.updated = false
		}
		return
	}
	for j := range vs.Values {
		v := &vs.Values[j]
		var slot *value
		if j < len(m.values) && m.values[j].inst == v.Inst {
			slot = m.values[j]
		} else {
			for _, s := range m.values {
				if s.inst == v.Inst {
					slot = s
					break
				}
			}
			if slot == nil {
				slot = &value{inst: v.Inst}
				m.values = append(m.values, slot)
			}
		}
		if s, ok := encodeValue(vs, v, m.desc.Type); ok {
			slot.text, slot.updated = s, true
		}
	}
}
