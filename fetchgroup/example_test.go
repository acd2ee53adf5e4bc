package fetchgroup_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	_ "github.com/gopcp/gopcp/agents/all" // registers the in-process agents
	"github.com/gopcp/gopcp/agents/sample"
	"github.com/gopcp/gopcp/fetchgroup"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmapi/local"
)

// A group on PCP's sample agent run inside this process (a local
// context), which needs no pmcd and no PCP installed: one metric, one
// instance of another and every instance of a third, fetched together.
func Example() {
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
	src, err := local.NewContext(ctx, local.WithTable(agents), local.WithNamespace(names))
	if err != nil {
		log.Fatal(err)
	}
	g := fetchgroup.New(src)
	defer g.Close()

	one, err := fetchgroup.ExtendItem[int64](ctx, g, "sample.long.one", nil)
	if err != nil {
		log.Fatal(err)
	}
	bin3, err := fetchgroup.ExtendItem[float64](ctx, g, "sample.bin",
		&fetchgroup.ItemOptions{Instance: "bin-300"})
	if err != nil {
		log.Fatal(err)
	}
	ten, err := fetchgroup.ExtendInDom[string](ctx, g, "sample.dupnames.two.float.ten", nil)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := g.Fetch(ctx); err != nil {
		log.Fatal(err)
	}
	fmt.Println("sample.long.one:", one.Value())
	fmt.Println("sample.bin[bin-300]:", bin3.Value())
	fmt.Println("sample.dupnames.two.float.ten as text:", ten.Instances()[0].Value)
	// Output:
	// sample.long.one: 1
	// sample.bin[bin-300]: 300
	// sample.dupnames.two.float.ten as text: 1.000000000e+01
}

// Values is the short path: named metrics from a context, once, as one
// Go type. Here the context is a small archive of a Linux host.
func ExampleValues() {
	ctx := context.Background()
	c, err := pmapi.NewArchiveContext(ctx, "testdata/archives/pcp-uptime2")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	ms, err := fetchgroup.Values[float64](ctx, c, "kernel.all.load", "kernel.all.uptime")
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range ms {
		for _, in := range m.Instances {
			fmt.Printf("%s %q %.2f\n", m.Name, in.Name, in.Value)
		}
	}
	// Output:
	// kernel.all.load "1 minute" 0.86
	// kernel.all.load "5 minute" 0.39
	// kernel.all.load "15 minute" 0.14
	// kernel.all.uptime "" 75.00
}

// Every instance of a metric, with the time of each fetch, through an
// archive to its end.
func ExampleExtendInDom() {
	ctx := context.Background()
	g, err := fetchgroup.Create(ctx, pmapi.KindArchive, "testdata/archives/pcp-uptime2")
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	load, err := fetchgroup.ExtendInDom[float32](ctx, g, "kernel.all.load", nil)
	if err != nil {
		log.Fatal(err)
	}
	ts := g.ExtendTimestamp()
	for {
		if _, err := g.Fetch(ctx); errors.Is(err, pcp.ErrEOL) {
			break
		} else if err != nil {
			log.Fatal(err)
		}
		if load.Err() != nil || load.Len() == 0 {
			continue // a record of other metrics
		}
		fmt.Print(ts.Time().UTC().Format(time.TimeOnly))
		for _, in := range load.Instances() {
			fmt.Printf("  %s %.2f", in.Name, in.Value)
		}
		fmt.Println()
	}
	// Output:
	// 07:42:43  1 minute 0.86  5 minute 0.39  15 minute 0.14
	// 07:43:43  1 minute 0.39  5 minute 0.35  15 minute 0.14
}

// One instance of a metric with an instance domain, named in the
// options.
func ExampleExtendItem() {
	ctx := context.Background()
	g, err := fetchgroup.Create(ctx, pmapi.KindArchive, "testdata/archives/pcp-uptime2")
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	load5, err := fetchgroup.ExtendItem[float64](ctx, g, "kernel.all.load",
		&fetchgroup.ItemOptions{Instance: "5 minute"})
	if err != nil {
		log.Fatal(err)
	}
	// Without an instance, a metric with instances is an error.
	_, err = fetchgroup.ExtendItem[float64](ctx, g, "kernel.all.load", nil)
	fmt.Println(errors.Is(err, pcp.ErrInDom))

	// The archive holds two records of kernel.all.load; a fetch past
	// them is the end of the archive.
	for {
		if _, err := g.Fetch(ctx); errors.Is(err, pcp.ErrEOL) {
			break
		} else if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%.2f\n", load5.Value())
	}
	// Output:
	// true
	// 0.39
	// 0.35
}

// Scales: one counter (sample.seconds, a count of seconds) as a rate in
// its own units, the default for counters, as it is, and as a rate in
// other units.
func ExampleItemOptions() {
	ctx := context.Background()
	g, err := fetchgroup.Create(ctx, pmapi.KindArchive, "testdata/archives/sample-secs")
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	rate, err := fetchgroup.ExtendItem[float64](ctx, g, "sample.seconds", nil)
	if err != nil {
		log.Fatal(err)
	}
	raw, err := fetchgroup.ExtendItem[uint64](ctx, g, "sample.seconds",
		&fetchgroup.ItemOptions{Scale: fetchgroup.Instant})
	if err != nil {
		log.Fatal(err)
	}
	msPerSec, err := fetchgroup.ExtendItem[float64](ctx, g, "sample.seconds",
		&fetchgroup.ItemOptions{Scale: "millisec/sec"})
	if err != nil {
		log.Fatal(err)
	}
	for range 3 {
		if _, err := g.Fetch(ctx); err != nil {
			log.Fatal(err)
		}
		if rate.Err() != nil { // the first fetch: no rate before two
			fmt.Printf("%d s, %v\n", raw.Value(), rate.Err())
			continue
		}
		fmt.Printf("%d s, %.2f s/s, %.0f ms/s\n", raw.Value(), rate.Value(), msPerSec.Value())
	}
	// Output:
	// 380432 s, Try again. Information not currently available
	// 380434 s, 1.00 s/s, 996 ms/s
	// 380436 s, 0.99 s/s, 995 ms/s
}
