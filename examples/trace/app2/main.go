// Command app2 is PCP's trace demo app2.c in Go: a loop that passes the
// point "mainloop" and then, in turn, sleeps (transaction "time_sucker"),
// writes to /dev/null ("io_sucker") and computes ("cpu_sucker"), each a
// random amount, for ever or -n rounds. -maxsleep bounds time_sucker's
// sleep (10 seconds, as in C); -async chooses the asynchronous protocol.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/gopcp/gopcp/trace"
)

const (
	ioUpperLimit  = 1000   // writes
	cpuUpperLimit = 0xffff // iterations
)

func main() {
	prog := filepath.Base(os.Args[0])
	rounds := flag.Int("n", 0, "stop after `rounds` of the loop (0: never)")
	maxSleep := flag.Duration("maxsleep", 10*time.Second, "longest sleep of time_sucker")
	async := flag.Bool("async", false, "use the asynchronous protocol")
	flag.Parse()
	opts, err := trace.EnvOptions(os.LookupEnv)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", prog, err)
	}
	opts.Async = *async
	c, err := trace.New(opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", prog, err)
		os.Exit(1)
	}
	defer c.Close()
	ctx := context.Background()
	suckers := []struct {
		tag  string
		work func()
	}{
		{"time_sucker", func() { time.Sleep(rand.N(*maxSleep + 1)) }},
		{"io_sucker", ioSuck},
		{"cpu_sucker", cpuSuck},
	}
	for i := 0; *rounds == 0 || i < *rounds; i++ {
		if err := c.Point(ctx, "mainloop"); err != nil {
			fmt.Fprintf(os.Stderr, "%s: mainloop point trace failed (%d): %s\n", prog, trace.CodeOf(err), trace.ErrText(trace.CodeOf(err)))
			os.Exit(1)
		}
		if err := timed(ctx, c, suckers[i%3].tag, suckers[i%3].work); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", prog, err)
		}
	}
}

// timed runs work as the transaction tag.
func timed(ctx context.Context, c *trace.Client, tag string, work func()) error {
	t := c.Start(tag)
	work()
	if err := t.End(ctx); err != nil {
		return fmt.Errorf("%s end (%d): %s", tag, trace.CodeOf(err), trace.ErrText(trace.CodeOf(err)))
	}
	return nil
}

// ioSuck writes a random number of bytes to /dev/null one at a time.
func ioSuck() {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	for range rand.N(ioUpperLimit) {
		f.Write([]byte{'!'})
	}
}

// cpuSuck fills an array a random number of times.
func cpuSuck() {
	var a [100]float64
	n := rand.N(cpuUpperLimit)
	for range n {
		for j := range a {
			a[j] = float64(j * n)
		}
	}
}
