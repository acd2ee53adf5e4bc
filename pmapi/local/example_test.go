package local_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	_ "github.com/gopcp/gopcp/agents/all" // registers the in-process agents
	"github.com/gopcp/gopcp/agents/sample"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi/local"
)

// newSampleContext runs PCP's sample agent inside this process, with
// its names from the agent, so that no pmcd and no PCP installation is
// needed.
func newSampleContext(ctx context.Context) (*local.Context, error) {
	agents := local.NewTable()
	agents.Clear() // not the agents of this host's pmcd.conf
	if err := agents.Add(29, "pmda_sample.so", "sample_init"); err != nil {
		return nil, err
	}
	names, err := sample.Namespace(29)
	if err != nil {
		return nil, err
	}
	return local.NewContext(ctx, local.WithTable(agents), local.WithNamespace(names))
}

// A local context: agents called inside this process, here PCP's sample
// agent, as the tools' -L option makes. Its metadata, instances and
// values are answered as pmcd would answer them.
func ExampleNewContext() {
	ctx := context.Background()
	agents := local.NewTable()
	agents.Clear() // not the agents of this host's pmcd.conf
	if err := agents.Add(29, "pmda_sample.so", "sample_init"); err != nil {
		log.Fatal(err)
	}
	names, err := sample.Namespace(29)
	if err != nil {
		log.Fatal(err)
	}
	c, err := local.NewContext(ctx, local.WithTable(agents), local.WithNamespace(names))
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
	insts, err := c.GetInDom(ctx, desc.InDom)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pmid, desc.InDom, insts)
	// Output:
	// 29.0.5 29.1 [{0 red} {1 green} {2 blue}]
}

// A profile restricts a fetch to some instances of an instance domain.
func ExampleContext_AddProfile() {
	ctx := context.Background()
	c, err := newSampleContext(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	pmid, err := c.LookupName(ctx, "sample.bin")
	if err != nil {
		log.Fatal(err)
	}
	desc, err := c.LookupDesc(ctx, pmid)
	if err != nil {
		log.Fatal(err)
	}
	// Exclude every instance of the domain, then include two of them.
	if err := c.DelProfile(desc.InDom, nil); err != nil {
		log.Fatal(err)
	}
	if err := c.AddProfile(desc.InDom, []int32{200, 700}); err != nil {
		log.Fatal(err)
	}
	var r pcp.Result
	if _, err := c.Fetch(ctx, []pcp.PMID{pmid}, &r); err != nil {
		log.Fatal(err)
	}
	for _, v := range r.Sets[0].Values {
		fmt.Println(v.Inst, v.LVal)
	}
	// Output:
	// 200 200
	// 700 700
}

// Errors wrap PCP's codes: errors.Is tests for one, errors.As finds it,
// with PCP's message and number.
func ExampleContext_LookupName() {
	ctx := context.Background()
	c, err := newSampleContext(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	_, err = c.LookupName(ctx, "sample.no.such")
	fmt.Println(errors.Is(err, pcp.ErrName))
	var code pcp.Error
	if errors.As(err, &code) {
		fmt.Println(int32(code), code)
	}
	// Output:
	// true
	// -12357 Unknown metric name
}
