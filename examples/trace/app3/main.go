// Command app3 is PCP's trace demo app3.c in Go: three goroutines, each
// timing ten transactions of its own kind at once, "pio_sucker" writing
// to /dev/null, "pcpu_sucker" computing and "ptime_sucker" sleeping up to
// -maxsleep (10 seconds, as in C), all through one Client.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gopcp/gopcp/trace"
)

func main() {
	prog := filepath.Base(os.Args[0])
	maxSleep := flag.Duration("maxsleep", 10*time.Second, "longest sleep of ptime_sucker")
	flag.Parse()
	opts, err := trace.EnvOptions(os.LookupEnv)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", prog, err)
	}
	c, err := trace.New(opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", prog, err)
		os.Exit(1)
	}
	defer c.Close()
	ctx := context.Background()
	work := []struct {
		tag, what string
		do        func()
	}{
		{"pio_sucker", "io-bound", ioSuck},
		{"pcpu_sucker", "cpu-bound", cpuSuck},
		{"ptime_sucker", "timer", func() { time.Sleep(rand.N(*maxSleep + 1)) }},
	}
	var wg sync.WaitGroup
	for _, w := range work {
		wg.Go(func() {
			loops := 0
			for ; loops < 10; loops++ {
				if err := c.Begin(ctx, w.tag); err != nil {
					fmt.Fprintf(os.Stderr, "%s: %s begin (%d): %s\n", prog, w.tag, trace.CodeOf(err), trace.ErrText(trace.CodeOf(err)))
					return
				}
				w.do()
				if err := c.End(ctx, w.tag); err != nil {
					fmt.Fprintf(os.Stderr, "%s: %s end (%d): %s\n", prog, w.tag, trace.CodeOf(err), trace.ErrText(trace.CodeOf(err)))
					return
				}
			}
			fmt.Fprintf(os.Stderr, "%s: finished %d %s iterations.\n", prog, loops, w.what)
		})
	}
	wg.Wait()
	for i := range work {
		fmt.Fprintf(os.Stderr, "%s: reaped goroutine #%d\n", prog, i)
	}
}

// ioSuck writes a random number of bytes to /dev/null one at a time.
func ioSuck() {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	for range rand.N(1000) {
		f.Write([]byte{'!'})
	}
}

// cpuSuck fills an array a random number of times.
func cpuSuck() {
	var a [100]float64
	n := rand.N(0xffff)
	for range n {
		for j := range a {
			a[j] = float64(j * n)
		}
	}
}
