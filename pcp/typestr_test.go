package pcp

import (
	"math"
	"testing"
)

// Golden coverage against libpcp is in TestIDStrMatchesLibpcp (the idstr
// harness answers pmTypeStr and pmSemStr too); these are the named cases.
func TestTypeString(t *testing.T) {
	for _, tc := range []struct {
		t    Type
		want string
	}{
		{Type32, "32"}, {TypeU32, "U32"}, {Type64, "64"}, {TypeU64, "U64"},
		{TypeFloat, "FLOAT"}, {TypeDouble, "DOUBLE"}, {TypeString, "STRING"},
		{TypeAggregate, "AGGREGATE"}, {TypeAggregateStatic, "AGGREGATE_STATIC"},
		{TypeEvent, "EVENT"}, {TypeHighResEvent, "HIGHRES_EVENT"},
		{TypeNoSupport, "NO_SUPPORT"}, {TypeUnknown, "UNKNOWN"},
		{11, "???"}, {-2, "???"}, {254, "???"}, {math.MinInt32, "???"},
	} {
		if got := tc.t.String(); got != tc.want {
			t.Errorf("Type(%d).String() = %q, want %q", int32(tc.t), got, tc.want)
		}
	}
}

func TestSemString(t *testing.T) {
	for _, tc := range []struct {
		s    Sem
		want string
	}{
		{SemCounter, "counter"}, {SemInstant, "instant"}, {SemDiscrete, "discrete"},
		{0, "???"}, {2, "???"}, {5, "???"}, {-1, "???"},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("Sem(%d).String() = %q, want %q", int32(tc.s), got, tc.want)
		}
	}
}
