// Command pmclient is the Programmer's Guide's example PMAPI client, PCP's
// pmclient(1): a line per interval of CPU utilization (overall and the
// busiest CPU's), free memory, disk operations per second and the 1 and 15
// minute load averages, from a pmcd (-h) or an archive (-a, replayed by
// interpolation), printing what PCP 6.0.3's pmclient prints, its
// messages included. It uses the PMAPI calls the Guide walks through:
// names to PMIDs, descriptors, fetches, instance profiles and value
// extraction with unit conversion.
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/gopcp/gopcp/cmd/internal/guide"
	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

func main() {
	cli.Signals()
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

// The metrics, in the order of PCP's pmnsmap.spec.
var (
	initNames   = []string{"hinv.ncpu"}
	sampleNames = []string{"kernel.all.load", "kernel.percpu.cpu.user", "kernel.percpu.cpu.sys", "mem.freemem", "disk.all.total"}
)

const (
	loadAv = iota
	cpuUsr
	cpuSys
	freeMem
	dkIOPS
)

// exitError ends the run with its message printed and status 1, as the
// client's exit(1) calls do.
type exitError struct{ stdout, stderr string }

func run(ctx context.Context, argv []string, stdout, stderr io.Writer) (code int) {
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	r, code := guide.Open(ctx, "pmclient", false, argv, out, stderr, func(p *cli.Parsed, kind pmapi.Kind, source string) (pmapi.Source, error) {
		return p.NewSource(ctx, kind, source)
	})
	if r == nil {
		return code
	}
	defer r.Src.Close()
	r.Stdout = lineWriter{out}
	defer func() {
		switch e := recover().(type) {
		case nil:
		case exitError:
			out.WriteString(e.stdout)
			out.Flush()
			fmt.Fprint(stderr, e.stderr)
			code = 1
		default:
			panic(e)
		}
	}()
	c := &client{r: r, ctx: ctx}
	c.ncpu = c.getNCPU()
	if !r.Replay() {
		return 1
	}
	c.sample()
	if r.Kind == pmapi.KindArchive {
		c.sample() // past the preamble, into the data
	}
	for lines := 0; r.Samples == -1 || lines < r.Samples; lines++ {
		if lines%15 == 0 {
			r.Heading(int(c.ncpu), c.info.stamp)
		}
		r.Wait()
		c.sample()
		c.print()
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

// info is one report line, -1 for a value that could not be had.
type info struct {
	stamp         pcp.Timestamp
	cpuUtil       float32
	peakCPU       int32
	peakCPUUtil   float32
	freeMem       float32
	dkIOPS        int32
	load1, load15 float32
}

type client struct {
	r    *guide.Run
	ctx  context.Context
	ncpu uint32
	info info

	pmids         []pcp.PMID
	descs         []pcp.Desc
	inst1, inst15 int32
	cur, prev     *pcp.Result
}

func (c *client) fail(format string, args ...any) {
	panic(exitError{stderr: fmt.Sprintf("%s: "+format, append([]any{c.r.Prog}, args...)...)})
}

// getNCPU is the number of CPUs, from one fetch of hinv.ncpu; 1 when
// it says 0.
func (c *client) getNCPU() uint32 {
	src, ctx := c.r.Src, c.ctx
	ids, err := src.LookupNames(ctx, initNames)
	if err != nil {
		c.fail("pmLookupName: %s\n%s: metric \"%s\" not in name space\n", pcp.TextOf(err), c.r.Prog, initNames[0])
	}
	d, err := src.LookupDesc(ctx, ids[0])
	if err != nil {
		c.fail("cannot retrieve description for metric \"%s\" (PMID: %s)\nReason: %s\n", initNames[0], ids[0], pcp.TextOf(err))
	}
	var res pcp.Result
	if _, err := src.Fetch(ctx, ids, &res); err != nil {
		c.fail("pmFetch: %s\n", pcp.TextOf(err))
	}
	var n uint32
	if vs := res.Sets[0]; vs.NumVal > 0 {
		a, _ := pcp.ExtractValue(vs.ValFmt, &vs.Values[0], d.Type, pcp.TypeU32)
		n = a.UL
	}
	if n == 0 {
		return 1
	}
	return n
}

// setup looks the report's metrics up, once.
func (c *client) setup() {
	src, ctx, prog := c.r.Src, c.ctx, c.r.Prog
	ids, err := src.LookupNames(ctx, sampleNames)
	if err != nil {
		// this one message goes to stdout in PCP's client
		msg := ""
		for i, id := range ids {
			if id == pcp.PMIDNull {
				msg += fmt.Sprintf("%s: metric \"%s\" not in name space\n", prog, sampleNames[i])
			}
		}
		panic(exitError{stdout: fmt.Sprintf("%s: pmLookupName: %s\n", prog, pcp.TextOf(err)), stderr: msg})
	}
	c.pmids = ids
	c.descs = make([]pcp.Desc, len(ids))
	for i, id := range ids {
		d, err := src.LookupDesc(ctx, id)
		if err != nil {
			c.fail("cannot retrieve description for metric \"%s\" (PMID: %s)\nReason: %s\n", sampleNames[i], id, pcp.TextOf(err))
		}
		c.descs[i] = d
	}
}

// profile limits the load average to its 1 and 15 minute instances,
// after the first fetch.
func (c *client) profile() {
	indom := c.descs[loadAv].InDom
	lookup := func(name string) (int32, error) {
		if a, ok := c.r.Src.(*pmapi.ArchiveContext); ok {
			return a.LookupInDomArchive(indom, name)
		}
		return c.r.Src.LookupInDom(c.ctx, indom, name)
	}
	var err error
	if c.inst1, err = lookup("1 minute"); err != nil {
		c.fail("cannot translate instance for 1 minute load average\n")
	}
	if c.inst15, err = lookup("15 minute"); err != nil {
		c.fail("cannot translate instance for 15 minute load average\n")
	}
	c.r.Src.DelProfile(indom, nil)
	c.r.Src.AddProfile(indom, []int32{c.inst1})
	c.r.Src.AddProfile(indom, []int32{c.inst15})
}
