package pmda

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestStuffValFmt: the format a value is sent in follows its type as
// libpcp's __pmStuffValue gives it: 32-bit integers in place, static
// aggregates and event records in blocks the agent keeps (PM_VAL_SPTR),
// everything else in blocks made for the result (PM_VAL_DPTR). PCP's pmcd
// passes the format on to clients and pmlogger writes it into archives,
// so PCP's sample agent's sample.sysinfo and sample.event.* arrive as
// PM_VAL_SPTR.
func TestStuffValFmt(t *testing.T) {
	block := &pcp.ValueBlock{Type: pcp.TypeAggregate, Data: []byte("abc")}
	cases := []struct {
		typ  pcp.Type
		atom pcp.Atom
		want pcp.ValFmt
	}{
		{pcp.Type32, pcp.Atom{L: 1}, pcp.ValInSitu},
		{pcp.TypeU32, pcp.Atom{UL: 1}, pcp.ValInSitu},
		{pcp.Type64, pcp.Atom{LL: 1}, pcp.ValDPtr},
		{pcp.TypeU64, pcp.Atom{ULL: 1}, pcp.ValDPtr},
		{pcp.TypeFloat, pcp.Atom{F: 1}, pcp.ValDPtr},
		{pcp.TypeDouble, pcp.Atom{D: 1}, pcp.ValDPtr},
		{pcp.TypeString, pcp.Atom{CP: "x"}, pcp.ValDPtr},
		{pcp.TypeAggregate, pcp.Atom{VBP: block}, pcp.ValDPtr},
		{pcp.TypeAggregateStatic, pcp.Atom{VBP: block}, pcp.ValSPtr},
		{pcp.TypeEvent, pcp.Atom{VBP: block}, pcp.ValSPtr},
		{pcp.TypeHighResEvent, pcp.Atom{VBP: block}, pcp.ValSPtr},
	}
	for _, c := range cases {
		var arena []byte
		var v pcp.Value
		got, err := stuff(&arena, &v, c.typ, &c.atom)
		if err != nil || got != c.want {
			t.Errorf("%v: format %d, %v; want %d", c.typ, got, err, c.want)
		}
	}
}
