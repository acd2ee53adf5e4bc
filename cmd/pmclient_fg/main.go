// Command pmclient_fg is the Programmer's Guide's example fetchgroup
// client, PCP's pmclient_fg(1): pmclient's report (CPU utilization,
// the busiest CPU, free memory, disk operations per second, load
// averages) with every value fetched, converted and rate-computed by one
// fetchgroup, printing what PCP 6.0.3's pmclient_fg prints: values that
// could not be had show as the fetchgroup's no-value sentinels ("-nan",
// -1), as PCP's do.
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/gopcp/gopcp/cmd/internal/guide"
	"github.com/gopcp/gopcp/fetchgroup"
	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

func main() {
	cli.Signals()
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

// maxInsts is how many CPUs PCP's client keeps values for.
const maxInsts = 1024

// client holds the group's handles and what the report keeps from one
// fetch to the next (PCP's client's statics).
type client struct {
	r  *guide.Run
	g  *fetchgroup.Group
	ts *fetchgroup.Timestamp

	ncpu, dkIOPS         *fetchgroup.Item[int32]
	load1, load15, free  *fetchgroup.Item[float64]
	user, sys            *fetchgroup.InDom[float64]
	userVals, sysVals    [maxInsts]float64
	userInsts            [maxInsts]int32
	cpuUtil, peakCPUUtil float64
	peakCPU              int32
	// ncpuVal is hinv.ncpu's value as the client keeps it: made 1 in
	// place when the fetch gave none or 0
	ncpuVal int32
}

func run(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	var g *fetchgroup.Group
	r, code := guide.Open(ctx, "pmclient_fg", true, argv, out, stderr, func(p *cli.Parsed, kind pmapi.Kind, source string) (pmapi.Source, error) {
		src, err := p.NewSource(ctx, kind, source)
		if err != nil {
			return nil, err
		}
		g = fetchgroup.New(src)
		g.SetCounterWrap(cli.CounterWrap())
		return g.Source(), nil
	})
	if r == nil {
		return code
	}
	defer g.Close()
	r.Stdout = lineWriter{out}
	if !r.Replay() {
		return 1
	}
	c := &client{r: r, g: g}
	fail := func(err error) int {
		out.Flush()
		fmt.Fprint(stderr, err)
		return 1
	}
	if err := c.setup(ctx); err != nil {
		return fail(err)
	}
	if r.Kind == pmapi.KindArchive {
		// the early record holding hinv.ncpu alone
		if err := c.sample(ctx); err != nil {
			return fail(err)
		}
	}
	if err := c.sample(ctx); err != nil {
		return fail(err)
	}
	for lines := 0; r.Samples == -1 || lines < r.Samples; lines++ {
		if lines%15 == 0 {
			r.Heading(int(c.ncpuVal), c.ts.Stamp())
		}
		r.Wait()
		if err := c.sample(ctx); err != nil {
			return fail(err)
		}
		line := guide.F(5, 2, c.cpuUtil)
		if c.ncpuVal > 1 {
			line += fmt.Sprintf("   %3d   %s", c.peakCPU, guide.F(5, 2, c.peakCPUUtil))
		}
		line += " " + guide.F(9, 3, c.free.Value())
		line += fmt.Sprintf(" %6d", c.dkIOPS.Value())
		line += "  " + guide.F(7, 2, c.load1.Value()) + " " + guide.F(7, 2, c.load15.Value())
		fmt.Fprintln(r.Stdout, line)
	}
	return 0
}

// lineWriter flushes each line as it is written: the client's stdout is
// line buffered.
type lineWriter struct{ w *bufio.Writer }

func (l lineWriter) Write(b []byte) (int, error) {
	n, err := l.w.Write(b)
	if err == nil {
		err = l.w.Flush()
	}
	return n, err
}

// setup extends the group with the report's metrics, PCP's client's
// messages on failure.
func (c *client) setup(ctx context.Context) error {
	g, prog := c.g, c.r.Prog
	failed := func(what string, err error) error {
		return fmt.Errorf("%s: Failed %s: %s\n", prog, what, pcp.TextOf(err))
	}
	var err error
	if c.ncpu, err = fetchgroup.ExtendItem[int32](ctx, g, "hinv.ncpu", nil); err != nil {
		return failed("hinv.ncpu ExtendFetchGroup", err)
	}
	if c.load1, err = fetchgroup.ExtendItem[float64](ctx, g, "kernel.all.load", &fetchgroup.ItemOptions{Instance: "1 minute"}); err != nil {
		return failed("kernel.all.load[1] ExtendFetchGroup", err)
	}
	if c.load15, err = fetchgroup.ExtendItem[float64](ctx, g, "kernel.all.load", &fetchgroup.ItemOptions{Instance: "15 minute"}); err != nil {
		return failed("kernel.all.load[15] ExtendFetchGroup", err)
	}
	if c.user, err = fetchgroup.ExtendInDom[float64](ctx, g, "kernel.percpu.cpu.user", &fetchgroup.InDomOptions{Scale: "second/second"}); err != nil {
		return failed("kernel.percpu.cpu.user ExtendFetchGroup", err)
	}
	if c.sys, err = fetchgroup.ExtendInDom[float64](ctx, g, "kernel.percpu.cpu.sys", &fetchgroup.InDomOptions{Scale: "second/second"}); err != nil {
		return failed("kernel.percpu.cpu.sys ExtendFetchGroup", err)
	}
	if c.free, err = fetchgroup.ExtendItem[float64](ctx, g, "mem.freemem", &fetchgroup.ItemOptions{Scale: "Mbyte"}); err != nil {
		return failed("mem.freemem ExtendFetchGroup", err)
	}
	if c.dkIOPS, err = fetchgroup.ExtendItem[int32](ctx, g, "disk.all.total", &fetchgroup.ItemOptions{Scale: "count/second"}); err != nil {
		return failed("disk.all.total ExtendFetchGroup", err)
	}
	c.ts = g.ExtendTimestamp()
	return nil
}

// sample fetches the group and computes the CPU figures, pairing the
// user and system times by position as PCP's client does (its arrays
// keep a CPU's values from an earlier fetch when this one has fewer).
func (c *client) sample(ctx context.Context) error {
	if _, err := c.g.Fetch(ctx); err != nil {
		return fmt.Errorf("%s: pmFetchGroup: %s\n", c.r.Prog, pcp.TextOf(err))
	}
	n := min(c.user.Len(), maxInsts)
	for i, in := range c.user.Instances()[:n] {
		c.userVals[i], c.userInsts[i] = in.Value, in.Inst
	}
	for i, in := range c.sys.Instances()[:min(c.sys.Len(), maxInsts)] {
		c.sysVals[i] = in.Value
	}
	c.cpuUtil, c.peakCPUUtil = 0, -1
	for i := range n {
		util := c.userVals[i] + c.sysVals[i]
		if util > 1.0 {
			util = 1.0
		}
		c.cpuUtil += util
		if util > c.peakCPUUtil {
			c.peakCPUUtil, c.peakCPU = util, c.userInsts[i]
		}
	}
	c.ncpuVal = c.ncpu.Value()
	if c.ncpuVal <= 0 {
		c.ncpuVal = 1
	}
	c.cpuUtil /= float64(c.ncpuVal)
	return nil
}
