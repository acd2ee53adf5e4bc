package mmv_test

import (
	"fmt"
	"log"
	"os"
	"time"

	"github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/pcp"
)

// A registry with a counter over an instance domain, a gauge and a string,
// written to a directory (pmdammv reads mmv.DefaultDir()). The output is
// what a reader of the file sees, decoded by the test's own small reader.
func Example() {
	dir, err := os.MkdirTemp("", "mmv-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	r, err := mmv.New("acme", mmv.Options{Dir: dir, Flags: mmv.Process})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	products, err := r.AddInDom([]mmv.Instance{{ID: 0, Name: "Anvils"}, {ID: 1, Name: "Rockets"}},
		mmv.InDomOptions{ShortHelp: "Acme products"})
	if err != nil {
		log.Fatal(err)
	}
	made, err := r.CounterVec("products.count", products, mmv.MetricOptions{
		Units: pcp.Units{DimCount: 1}, ShortHelp: "Acme factory product throughput"})
	if err != nil {
		log.Fatal(err)
	}
	queue, _ := r.Gauge("queue.length", mmv.MetricOptions{})
	status, _ := r.Text("status", mmv.MetricOptions{})
	if err := r.Start(); err != nil {
		log.Fatal(err)
	}

	anvils, _ := made.With("Anvils")
	anvils.Inc() // one atomic add on the mapped file
	anvils.Add(2)
	queue.Set(4.5)
	status.Set("running")

	view, err := mmv.ReaderView(r.Path(), "mmv.acme.")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(view)
	// Output:
	// mmv.acme.products.count[Anvils] = 3
	// mmv.acme.products.count[Rockets] = 0
	// mmv.acme.queue.length = 4.5
	// mmv.acme.status = "running"
}

// Metrics added after Start rewrite the file with a new generation;
// handles taken before keep working and keep their values.
func ExampleRegistry_AddMetric_afterStart() {
	dir, _ := os.MkdirTemp("", "mmv-example")
	defer os.RemoveAll(dir)
	r, _ := mmv.New("app", mmv.Options{Dir: dir})
	defer r.Close()
	requests, _ := r.Counter("requests", mmv.MetricOptions{})
	r.Start()
	requests.Add(10)

	m, err := r.AddMetric("temperature", mmv.Int32, mmv.SemInstant, mmv.MetricOptions{Item: 9})
	if err != nil {
		log.Fatal(err)
	}
	m.Value().Set(-4)
	requests.Inc()

	view, _ := mmv.ReaderView(r.Path(), "")
	fmt.Print(view)
	// Output:
	// requests = 11
	// temperature = -4
}

// A histogram is three PCP metrics: bucket counts over an instance domain
// of upper bounds, and the count and sum of observations.
func ExampleRegistry_Histogram() {
	dir, _ := os.MkdirTemp("", "mmv-example")
	defer os.RemoveAll(dir)
	r, _ := mmv.New("web", mmv.Options{Dir: dir})
	defer r.Close()
	latency, err := r.Histogram("latency", mmv.HistogramOptions{Bounds: []float64{0.01, 0.1, 1},
		Units: pcp.Units{DimTime: 1, ScaleTime: pcp.TimeSec}})
	if err != nil {
		log.Fatal(err)
	}
	r.Start()
	for _, d := range []time.Duration{5 * time.Millisecond, 50 * time.Millisecond, 70 * time.Millisecond, 2 * time.Second} {
		latency.Observe(d.Seconds())
	}
	view, _ := mmv.ReaderView(r.Path(), "")
	fmt.Print(view)
	// Output:
	// latency.bucket[0.01] = 1
	// latency.bucket[0.1] = 2
	// latency.bucket[1] = 0
	// latency.bucket[+Inf] = 1
	// latency.count = 4
	// latency.sum = 2.125
}

// With the Sentinel flag a value can say "no value": pmdammv serves
// nothing for it rather than a number.
func ExampleValue_SetSentinel() {
	dir, _ := os.MkdirTemp("", "mmv-example")
	defer os.RemoveAll(dir)
	r, _ := mmv.New("svc", mmv.Options{Dir: dir, Flags: mmv.Sentinel})
	defer r.Close()
	m, _ := r.AddMetric("last_error_code", mmv.Int64, mmv.SemDiscrete, mmv.MetricOptions{})
	r.Start()
	m.Value().SetSentinel()
	view, _ := mmv.ReaderView(r.Path(), "")
	fmt.Print(view)
	// Output:
	// last_error_code = (no value)
}

// Labels (any JSON value) on the registry, instance domains, instances
// and metrics make the file version 3, as with libpcp_mmv.
func ExampleLabel() {
	dir, _ := os.MkdirTemp("", "mmv-example")
	defer os.RemoveAll(dir)
	r, _ := mmv.New("svc", mmv.Options{Dir: dir, Labels: []mmv.Label{mmv.StringLabel("service", "checkout")}})
	defer r.Close()
	r.Counter("orders", mmv.MetricOptions{Labels: []mmv.Label{{Name: "tier", Value: `"gold"`, Optional: true}}})
	r.Start()
	fmt.Println("version", r.Version())
	// Output:
	// version 3
}
