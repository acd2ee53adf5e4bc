package pcp

import (
	"fmt"
	"testing"
)

// Scales the unitsstr cases cycle through: every defined one and a few
// that PCP prints as "space-n" or "time-n".
var (
	unitsTestSpaceScales = []uint8{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15}
	unitsTestTimeScales  = []uint8{0, 1, 2, 3, 4, 5, 6, 15}
)

// unitsStrCases are the pmUnits the unitsstr harness is asked about: every
// combination of a spread of dimensions, each with 16 scale combinations
// that between them reach every count scale, plus each dimension alone at
// every power and every scale.
func unitsStrCases() []Units {
	var us []Units
	dims := []int8{-8, -2, -1, 0, 1, 2, 7}
	for _, ds := range dims {
		for _, dt := range dims {
			for _, dc := range dims {
				for k := range 16 {
					us = append(us, Units{
						DimSpace: ds, DimTime: dt, DimCount: dc,
						ScaleSpace: unitsTestSpaceScales[k%len(unitsTestSpaceScales)],
						ScaleTime:  unitsTestTimeScales[k%len(unitsTestTimeScales)],
						ScaleCount: int8(k - 8),
					})
				}
			}
		}
	}
	for d := int8(-8); d <= 7; d++ {
		for _, s := range unitsTestSpaceScales {
			us = append(us, Units{DimSpace: d, ScaleSpace: s})
		}
		for _, s := range unitsTestTimeScales {
			us = append(us, Units{DimTime: d, ScaleTime: s})
		}
		for s := int8(-8); s <= 7; s++ {
			us = append(us, Units{DimCount: d, ScaleCount: s})
		}
	}
	return us
}

func unitsHarnessLine(u Units) string {
	return fmt.Sprintf("%d %d %d %d %d %d", u.DimSpace, u.DimTime, u.DimCount, u.ScaleSpace, u.ScaleTime, u.ScaleCount)
}

func TestUnitsStringMatchesLibpcp(t *testing.T) {
	cases := unitsStrCases()
	byLine := make(map[string]Units, len(cases))
	inputs := make([]string, len(cases))
	for i, u := range cases {
		inputs[i] = unitsHarnessLine(u)
		byLine[inputs[i]] = u
	}
	strCheckGolden(t, "unitsstr", inputs, func(in string) string {
		return in + "\t" + byLine[in].String()
	})
}

func TestUnitsString(t *testing.T) {
	for _, tc := range []struct {
		u    Units
		want string
	}{
		{Units{}, ""},
		{Units{DimSpace: 1, DimTime: -1, ScaleSpace: SpaceKByte, ScaleTime: TimeSec}, "Kbyte / sec"},
		{Units{DimCount: 1, ScaleCount: 6}, "count x 10^6"},
		{Units{DimCount: 1, ScaleCount: 1}, "count x 10"},
		{Units{DimSpace: 2, DimTime: -1, ScaleTime: TimeMSec}, "byte^2 / millisec"},
		{Units{DimTime: -1, DimCount: -8, ScaleTime: TimeHour, ScaleCount: -8}, "/ hour count x 10^-8^8"},
		{Units{ScaleCount: -3}, "x 10^-3"},
		{Units{ScaleCount: 1}, "x 10"},
		{Units{ScaleSpace: 3, ScaleTime: 2}, ""},
		{Units{DimSpace: 1, ScaleSpace: 12}, "space-12"},
		{Units{DimTime: 7, ScaleTime: 9}, "time-9^7"},
		// Go's int8 fields can hold what a 4-bit field cannot; they are
		// shown as they are.
		{Units{DimSpace: -128, ScaleSpace: 255}, "/ space-255^128"},
	} {
		if got := tc.u.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.u, got, tc.want)
		}
	}
}

func TestUnitsStringAllocs(t *testing.T) {
	u := Units{DimSpace: 1, DimTime: -1, DimCount: -2, ScaleSpace: 2, ScaleTime: 3, ScaleCount: -6}
	if n := testing.AllocsPerRun(100, func() { _ = u.String() }); n > 1 {
		t.Errorf("Units.String allocates %v times", n)
	}
}
