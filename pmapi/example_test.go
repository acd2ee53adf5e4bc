package pmapi_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// Fetch the instances and values of a metric from the local pmcd.
func Example() {
	ctx := context.Background()
	c, err := pmapi.NewHostContext(ctx, "local:")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	pmid, err := c.LookupName(ctx, "sample.colour")
	if err != nil {
		log.Fatal(err)
	}
	desc, err := c.LookupDesc(ctx, pmid)
	if err != nil {
		log.Fatal(err)
	}
	var r pcp.Result
	if _, err := c.Fetch(ctx, []pcp.PMID{pmid}, &r); err != nil {
		log.Fatal(err)
	}
	set := &r.Sets[0]
	for i := range set.Values {
		v := &set.Values[i]
		name, err := c.NameInDom(ctx, desc.InDom, v.Inst)
		if err != nil {
			log.Fatal(err)
		}
		a, err := pcp.ExtractValue(set.ValFmt, v, desc.Type, pcp.TypeDouble)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %g\n", name, a.D)
	}
}

// Restrict a fetch to some instances of an instance domain.
func ExampleContext_AddProfile() {
	ctx := context.Background()
	c, err := pmapi.NewHostContext(ctx, "localhost")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	colour := pcp.NewInDom(29, 1)
	// Exclude every instance of the domain, then include two of them.
	if err := c.DelProfile(colour, nil); err != nil {
		log.Fatal(err)
	}
	if err := c.AddProfile(colour, []int32{0, 2}); err != nil {
		log.Fatal(err)
	}
}
