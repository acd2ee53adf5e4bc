package pmapi_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"

	"github.com/gopcp/gopcp/agents/sample"
	"github.com/gopcp/gopcp/fetchgroup"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmcd"
	"github.com/gopcp/gopcp/pmda"
)

// The values of one metric, the short way: a context and
// fetchgroup.Values. The context here is a small archive, so that the
// example runs anywhere; pmapi.NewHostContext(ctx, "localhost") would
// ask the local pmcd instead.
func Example() {
	ctx := context.Background()
	c, err := pmapi.NewArchiveContext(ctx, "testdata/archives/pcp-uptime2")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	load, err := fetchgroup.Values[float64](ctx, c, "kernel.all.load")
	if err != nil {
		log.Fatal(err)
	}
	for _, in := range load[0].Instances {
		fmt.Printf("%s: %.2f\n", in.Name, in.Value)
	}
	// Output:
	// 1 minute: 0.86
	// 5 minute: 0.39
	// 15 minute: 0.14
}

// The same values the long way, through the PMAPI's own calls: a name
// to a PMID, the PMID to a descriptor, a fetch, each value extracted as
// the type wanted and each instance named.
func ExampleNewArchiveContext() {
	ctx := context.Background()
	c, err := pmapi.NewArchiveContext(ctx, "testdata/archives/pcp-uptime2")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	pmid, err := c.LookupName(ctx, "kernel.all.load")
	if err != nil {
		log.Fatal(err)
	}
	desc, err := c.LookupDesc(ctx, pmid)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pmid, desc.Type, desc.Sem)
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
		fmt.Printf("%s: %.2f\n", name, a.D)
	}
	// Output:
	// 60.2.0 FLOAT instant
	// 1 minute: 0.86
	// 5 minute: 0.39
	// 15 minute: 0.14
}

// The -t option of PCP's tools, and its messages.
func ExampleParseInterval() {
	for _, spec := range []string{"2", "1min 30s", "250 msec", "1 fortnight"} {
		d, err := pmapi.ParseInterval(spec)
		var ie *pmapi.IntervalError
		if errors.As(err, &ie) {
			fmt.Print(ie.Report())
			continue
		}
		fmt.Println(d)
	}
	// Output:
	// 2s
	// 1m30s
	// 250ms
	// 1 fortnight
	//   ^ -- unexpected value
}

// Metric specifications as pmval and pmParseMetricSpec read them.
func ExampleParseMetricSpec() {
	for _, spec := range []string{
		"kernel.all.load",
		`myhost:kernel.all.load["1 minute","15 minute"]`,
		"/var/log/pcp/20261127/disk.dev.read",
	} {
		ms, err := pmapi.ParseMetricSpec(spec, pmapi.KindHost, "local:")
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%v %q %s %q\n", ms.Kind, ms.Source, ms.Metric, ms.Insts)
	}
	// Output:
	// host "local:" kernel.all.load []
	// host "myhost" kernel.all.load ["1 minute" "15 minute"]
	// archive "/var/log/pcp/20261127" disk.dev.read []
}

// A host context: a connection to a pmcd. The pmcd here is gopcp's,
// in this process on a loopback port with PCP's sample agent, so that
// the example runs anywhere; pmapi.NewHostContext(ctx, "local:") asks
// this host's pmcd. The values are those of a sample agent's first
// fetch, as PCP's pmdasample gives them.
func ExampleNewHostContext() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pmcd.RegisterDSO("example_sample_init", func(domain uint32) (*pmda.Agent, error) {
		return sample.New(domain, sample.Options{DSO: true})
	})
	conf := &pmcd.Conf{Agents: []pmcd.AgentConf{{Name: "sample", Domain: sample.Domain, Kind: pmcd.AgentDSO, Entry: "example_sample_init"}}}
	tree, err := pmcd.AgentNamespace(ctx, conf, map[string]pmcd.NameSource{"example_sample_init": sample.Namespace})
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	srv := &pmcd.Server{PMNS: tree, Conf: conf}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	defer func() { cancel(); <-served }()

	c, err := pmapi.NewHostContext(ctx, ln.Addr().String())
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	hundred, err := fetchgroup.Values[int64](ctx, c, "sample.long.hundred")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("sample.long.hundred", hundred[0].Instances[0].Value)
	colour, err := fetchgroup.Values[int32](ctx, c, "sample.colour")
	if err != nil {
		log.Fatal(err)
	}
	for _, in := range colour[0].Instances {
		fmt.Printf("sample.colour[%s] %d\n", in.Name, in.Value)
	}
	// Output:
	// sample.long.hundred 100
	// sample.colour[red] 101
	// sample.colour[green] 202
	// sample.colour[blue] 303
}
