package pcp_test

import (
	"fmt"
	"log"

	"github.com/gopcp/gopcp/pcp"
)

// Units from a specification as pmParseUnitsStr reads it: a value in the
// units returned, times the multiplier, is the value in the units named.
func ExampleParseUnits() {
	for _, s := range []string{"Kbyte / sec", "2 count", "millisec", "Kbyte / byte"} {
		u, mult, err := pcp.ParseUnits(s)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%q: %q times %g\n", s, u, mult)
	}
	_, _, err := pcp.ParseUnits("furlongs")
	fmt.Println(err)
	// Output:
	// "Kbyte / sec": "Kbyte / sec" times 1
	// "2 count": "count" times 0.5
	// "millisec": "millisec" times 1
	// "Kbyte / byte": "" times 0.0009765625
	// unrecognized or duplicate base unit
}

// A value rescaled from one unit to another of the same dimension, as
// pmConvScale does (integers rounded as libpcp rounds them).
func ExampleConvScale() {
	kb := pcp.Units{DimSpace: 1, ScaleSpace: pcp.SpaceKByte}
	mb := pcp.Units{DimSpace: 1, ScaleSpace: pcp.SpaceMByte}
	v, err := pcp.ConvScale(pcp.TypeU64, pcp.Atom{ULL: 3584}, kb, mb)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(v.ULL, "Mbyte")
	d, err := pcp.ConvScale(pcp.TypeDouble, pcp.Atom{D: 3584}, kb, mb)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.D, "Mbyte")
	_, err = pcp.ConvScale(pcp.TypeU64, pcp.Atom{ULL: 1}, kb, pcp.Units{DimTime: 1, ScaleTime: pcp.TimeSec})
	fmt.Println(err)
	// Output:
	// 4 Mbyte
	// 3.5 Mbyte
	// Impossible value or scale conversion
}

// PMIDs and instance domains in the dotted forms pminfo prints and reads.
func ExampleParsePMID() {
	pmid, err := pcp.ParsePMID("60.0.20")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pmid, pmid.Domain(), pmid.Cluster(), pmid.Item())
	indom, err := pcp.ParseInDom("60.1")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(indom, pcp.NewPMID(29, 0, 6) == pcp.PMID(29<<22|6))
	// Output:
	// 60.0.20 60 0 20
	// 60.1 true
}

// A descriptor as pminfo -d prints it (pmPrintDesc).
func ExampleFormatDesc() {
	fmt.Print(pcp.FormatDesc(pcp.Desc{
		PMID:  pcp.NewPMID(60, 0, 20),
		Type:  pcp.TypeU64,
		InDom: pcp.NewInDom(60, 0),
		Sem:   pcp.SemCounter,
		Units: pcp.Units{DimTime: 1, ScaleTime: pcp.TimeMSec},
	}))
	// Output:
	// Data Type: 64-bit unsigned int  InDom: 60.0 0xf000000
	//     Semantics: counter  Units: millisec
}

// Values printed as pmPrintValue prints them, from the forms a RESULT
// carries them in: in the value's word (insitu) or in a value block.
func ExampleFormatValue() {
	in := pcp.Value{Inst: 0, LVal: -42}
	fmt.Printf("[%s]\n", pcp.FormatValue(pcp.ValInSitu, pcp.Type32, &in, 6))
	f := pcp.Value{Inst: 0, LVal: int32(0x40490fdb)} // a float's bits: pi
	fmt.Printf("[%s]\n", pcp.FormatValue(pcp.ValInSitu, pcp.TypeFloat, &f, 0))
	// Output:
	// [   -42]
	// [3.1415927]
}

// A counter's change between two fetches as rate conversions take it: a
// 32-bit counter that wrapped gains 2^32 when wrapping is allowed.
func ExampleCounterDelta() {
	fmt.Println(pcp.CounterDelta(pcp.TypeU32, 10, 4294967290, true))
	fmt.Println(pcp.CounterDelta(pcp.TypeU32, 10, 4294967290, false))
	fmt.Println(pcp.CounterDelta(pcp.TypeU64, 250, 100, false))
	// Output:
	// 16 true
	// -4.29496728e+09 false
	// 150 true
}
