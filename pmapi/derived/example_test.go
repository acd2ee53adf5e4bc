package derived_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gopcp/gopcp/derive"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmapi/derived"
)

// Derived metrics over an archive: a context of its own (a registry
// made for it, not the process's), two definitions added to the context
// as pmAddDerived adds them, then the PMAPI's usual calls on the derived
// names. A host context wraps the same way. (PCP's pminfo -df with the
// same definitions in PCP_DERIVED_CONFIG gives these descriptors and
// first values.)
func ExampleWrap() {
	ctx := context.Background()
	c, err := pmapi.NewArchiveContext(ctx, "../testdata/archives/pcp-uptime2")
	if err != nil {
		log.Fatal(err)
	}
	src := derived.Wrap(c, derive.NewRegistry())
	defer src.Close()
	for name, expr := range map[string]string{
		"uptime.minutes": "kernel.all.uptime / 60",
		"load.total":     "sum(kernel.all.load)",
	} {
		if err := src.AddDerived(ctx, name, expr); err != nil {
			log.Fatal(err)
		}
	}
	names := []string{"uptime.minutes", "load.total"}
	pmids, err := src.LookupNames(ctx, names)
	if err != nil {
		log.Fatal(err)
	}
	descs, err := src.LookupDescs(ctx, pmids)
	if err != nil {
		log.Fatal(err)
	}
	for i, d := range descs {
		fmt.Printf("%s: %s, %s, units %q\n", names[i], d.Type, d.Sem, d.Units)
	}
	var r pcp.Result
	for range 2 {
		if _, err := src.Fetch(ctx, pmids, &r); err != nil {
			log.Fatal(err)
		}
		for i, set := range r.Sets {
			for _, v := range set.Values {
				a, err := pcp.ExtractValue(set.ValFmt, &v, descs[i].Type, pcp.TypeDouble)
				if err != nil {
					log.Fatal(err)
				}
				fmt.Printf("%s %.3f\n", names[i], a.D)
			}
		}
	}
	// A definition libpcp refuses, with its message.
	fmt.Println(src.AddDerived(ctx, "bad.one", "kernel.all.load +"))
	// Output:
	// uptime.minutes: DOUBLE, instant, units "sec"
	// load.total: FLOAT, instant, units ""
	// uptime.minutes 1.250
	// load.total 1.390
	// uptime.minutes 2.250
	// load.total 0.880
	// Syntax Error: pmAddDerivedMetric("bad.one", ...)
	// kernel.all.load +
	//                 ^
	// Arithmetic expression expected to follow PLUS
}
