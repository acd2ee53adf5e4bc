package pcp

import "testing"

// The expected lines are PCP's own: pminfo -d and -dI on the sample agent
// and the QA archives, pmdumplog -d, and pmPrintDesc's not-supported form.
func TestDescFormat(t *testing.T) {
	kbyte := Units{DimSpace: 1, ScaleSpace: SpaceKByte}
	countPerMbyte := Units{DimSpace: -1, DimCount: 1, ScaleSpace: SpaceMByte, ScaleCount: 6}
	for _, tc := range []struct {
		name string
		f    DescFormat
		d    Desc
		want string
	}{
		{"indom", DescFormat{}, Desc{Type: Type32, InDom: NewInDom(29, 2), Sem: SemInstant},
			"    Data Type: 32-bit int  InDom: 29.2 0x7400002\n    Semantics: instant  Units: none\n"},
		{"null indom", DescFormat{}, Desc{Type: TypeU32, InDom: InDomNull, Sem: SemInstant, Units: countPerMbyte},
			"    Data Type: 32-bit unsigned int  InDom: PM_INDOM_NULL 0xffffffff\n    Semantics: instant  Units: count x 10^6 / Mbyte\n"},
		{"counter", DescFormat{}, Desc{Type: TypeU64, InDom: NewInDom(1, 23), Sem: SemCounter, Units: kbyte},
			"    Data Type: 64-bit unsigned int  InDom: 1.23 0x400017\n    Semantics: counter  Units: Kbyte\n"},
		{"indom number", DescFormat{InDomNumber: true}, Desc{Type: TypeU64, InDom: NewInDom(1, 23), Sem: SemCounter, Units: kbyte},
			"    Data Type: 64-bit unsigned int  InDom: 1.23 = 4194327 = 0x400017\n    Semantics: counter  Units: Kbyte\n"},
		{"nosupport", DescFormat{}, Desc{Type: TypeNoSupport, InDom: InDomNull},
			"    Data Type: Not Supported\n"},
		{"nosupport full", DescFormat{Full: true}, Desc{Type: TypeNoSupport, InDom: InDomNull},
			"    Data Type: Not Supported  InDom: PM_INDOM_NULL 0xffffffff\n    Semantics: ??? (0)  Units: none\n"},
		{"unknown type and sem", DescFormat{}, Desc{Type: Type(42), InDom: InDomNull, Sem: Sem(2)},
			"    Data Type: ??? (42)  InDom: PM_INDOM_NULL 0xffffffff\n    Semantics: ??? (2)  Units: none\n"},
		{"highres event", DescFormat{}, Desc{Type: TypeHighResEvent, InDom: InDomNull, Sem: SemDiscrete},
			"    Data Type: highres event record array  InDom: PM_INDOM_NULL 0xffffffff\n    Semantics: discrete  Units: none\n"},
	} {
		if got := string(tc.f.Append(nil, tc.d)); got != tc.want {
			t.Errorf("%s: got\n%q\nwant\n%q", tc.name, got, tc.want)
		}
		if tc.f == (DescFormat{}) {
			if got := FormatDesc(tc.d); got != tc.want {
				t.Errorf("%s: FormatDesc gave %q", tc.name, got)
			}
		}
	}
}
