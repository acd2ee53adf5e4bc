package fetchgroup_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/gopcp/gopcp/fetchgroup"
	"github.com/gopcp/gopcp/pmapi"
)

// A vmstat-like loop: the load average, free memory in kilobytes and the
// disks' read rates in kilobytes per second, every second.
func Example() {
	ctx := context.Background()
	g, err := fetchgroup.Create(ctx, pmapi.KindHost, "localhost")
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	load, err := fetchgroup.ExtendItem[float32](ctx, g, "kernel.all.load", &fetchgroup.ItemOptions{Instance: "1 minute"})
	if err != nil {
		log.Fatal(err)
	}
	free, err := fetchgroup.ExtendItem[uint32](ctx, g, "mem.util.free", &fetchgroup.ItemOptions{Scale: "kbyte"})
	if err != nil {
		log.Fatal(err)
	}
	disks, err := fetchgroup.ExtendInDom[float64](ctx, g, "disk.dev.read_bytes", &fetchgroup.InDomOptions{Scale: "kbyte/sec"})
	if err != nil {
		log.Fatal(err)
	}
	for range 3 {
		if _, err := g.Fetch(ctx); err != nil {
			log.Print(err)
		}
		fmt.Printf("load %.2f free %d kB\n", load.Value(), free.Value())
		for _, d := range disks.Instances() {
			if d.Err == nil { // the first fetch has no rates: pcp.ErrAgain
				fmt.Printf("  %s %.1f kB/s\n", d.Name, d.Value)
			}
		}
		time.Sleep(time.Second)
	}
}
