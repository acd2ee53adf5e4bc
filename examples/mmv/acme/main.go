// Command acme is the Programmer's Guide's instrumentation example in Go:
// the Acme Corporation's factory, whose production line publishes, per
// product, how many it made, the machine time spent making them and the
// time each waited in the queue, as PCP's demo acme.c does with
// libpcp_mmv. Run it and look:
//
//	go run ./examples/mmv/acme &
//	pminfo -f mmv.acme
//
// -n stops it after that many products (0, the default, runs until
// killed); -dir writes somewhere other than $PCP_TMP_DIR/mmv.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"time"

	"github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/pcp"
)

// The numbers acme.c uses, so that PCP sees the same PMIDs and instance
// domain: cluster 321, instance domain 61, items 7, 8 and 10.
const (
	cluster = 321
	serial  = 61
)

var products = []mmv.Instance{{ID: 0, Name: "Anvils"}, {ID: 1, Name: "Rockets"}, {ID: 2, Name: "Giant_Rubber_Bands"}}

func main() {
	n := flag.Int("n", 0, "products to make before stopping (0: run until killed)")
	dir := flag.String("dir", "", "directory of the MMV file (default $PCP_TMP_DIR/mmv)")
	flag.Parse()
	if *dir == "" {
		d, err := mmv.DefaultDir()
		if err != nil {
			fmt.Fprintln(os.Stderr, "acme:", err)
			os.Exit(1)
		}
		*dir = d
	}
	if err := run(*dir, *n); err != nil {
		fmt.Fprintln(os.Stderr, "acme:", err)
		os.Exit(1)
	}
}

// factory holds the handles of each product's three values.
type factory struct {
	count, machine, queue []*mmv.Value
}

// open writes the registry acme.c describes.
func open(dir string) (*mmv.Registry, *factory, error) {
	r, err := mmv.New("acme", mmv.Options{Dir: dir, Cluster: cluster})
	if err != nil {
		return nil, nil, err
	}
	d, err := r.AddInDom(products, mmv.InDomOptions{Serial: serial,
		ShortHelp: "Acme products", LongHelp: "Most popular products produced by the Acme Corporation"})
	if err != nil {
		return nil, nil, err
	}
	usec := pcp.Units{DimTime: 1, ScaleTime: pcp.TimeUSec}
	specs := []struct {
		name        string
		item        uint32
		units       pcp.Units
		short, long string
	}{
		{"products.count", 7, pcp.Units{DimCount: 1}, "Acme factory product throughput",
			"Monotonic increasing counter of products produced in the Acme Corporation\n" +
				"factory since starting the Acme production application.  Quality guaranteed."},
		{"products.time", 8, usec, "Machine time spent producing Acme products",
			"Machine time spent producing Acme Corporation products.  Does not include\n" +
				"time in queues waiting for production machinery."},
		{"products.queuetime", 10, usec, "Queued time while producing Acme products",
			"Time spent in the queue waiting to build Acme Corporation products,\n" +
				"while some other Acme product was being built instead of this one."},
	}
	handles := make([][]*mmv.Value, len(specs))
	for i, s := range specs {
		m, err := r.AddMetric(s.name, mmv.Uint64, mmv.SemCounter, mmv.MetricOptions{
			Item: s.item, Units: s.units, InDom: d, ShortHelp: s.short, LongHelp: s.long})
		if err != nil {
			return nil, nil, err
		}
		for _, p := range products {
			handles[i] = append(handles[i], m.Instance(p.ID))
		}
	}
	if err := r.Start(); err != nil {
		return nil, nil, err
	}
	return r, &factory{count: handles[0], machine: handles[1], queue: handles[2]}, nil
}

// make builds one product for work microseconds: its count and machine
// time go up, and every other product waits that long in the queue.
func (f *factory) make(product int, work uint64) {
	f.machine[product].Add(int64(work))
	f.count[product].Add(1)
	for i := range f.queue {
		if i != product {
			f.queue[i].Add(int64(work))
		}
	}
}

func run(dir string, n int) error {
	r, f, err := open(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt)
	for i := 0; n == 0 || i < n; i++ {
		product := rand.IntN(len(products))
		work := rand.Uint64N(50000)
		select {
		case <-stop:
			return nil
		case <-time.After(time.Duration(work) * time.Microsecond):
		}
		f.make(product, work)
	}
	return nil
}
