package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/gopcp/gopcp/fetchgroup"
	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// stat is one source's fetchgroup and the handles of the report's
// columns; a handle whose metric could not be added is nil and shows as
// "?".
type stat struct {
	g       *fetchgroup.Group
	name    string // the host name, once asked for
	fetched bool   // a fetch has succeeded (archives)
	swapOp  byte   // 'p' for pages swapped, 's' where only swap.in/out exist

	ts                                          *fetchgroup.Timestamp
	load                                        *fetchgroup.Item[float32]
	swapUsed, free, buf, cached                 *fetchgroup.Item[uint32]
	swapIn, swapOut, blkRead, blkWrite          *fetchgroup.Item[uint32]
	intr, pswitch                               *fetchgroup.Item[uint32]
	nice, user, cpuIntr, sys, idle, wait, steal *fetchgroup.Item[uint64]
}

// errNoMetrics is a source that has none of the report's metrics; the
// text is PCP's message.
var errNoMetrics = errors.New("Cannot resolve any metrics.")

// newStat makes the fetchgroup of one source with the report's metrics,
// falling back to older names where PCP's pmstat does.
func newStat(ctx context.Context, p *cli.Parsed, kind pmapi.Kind, name string) (*stat, error) {
	src, err := p.NewSource(ctx, kind, name)
	if err != nil {
		return nil, &createError{err}
	}
	s := &stat{g: fetchgroup.New(src), swapOp: 'p'}
	g := s.g
	g.SetCounterWrap(cli.CounterWrap())
	u32 := func(scale string, names ...string) *fetchgroup.Item[uint32] {
		for _, n := range names {
			if it, err := fetchgroup.ExtendItem[uint32](ctx, g, n, &fetchgroup.ItemOptions{Scale: scale}); err == nil {
				return it
			}
		}
		return nil
	}
	u64 := func(n string) *fetchgroup.Item[uint64] {
		it, _ := fetchgroup.ExtendItem[uint64](ctx, g, n, nil)
		return it
	}
	s.ts = g.ExtendTimestamp()
	s.load, _ = fetchgroup.ExtendItem[float32](ctx, g, "kernel.all.load", &fetchgroup.ItemOptions{Instance: "1 minute"})
	s.swapUsed = u32("kbyte", "swap.used")
	s.free = u32("kbyte", "mem.util.free")
	s.buf = u32("kbyte", "mem.util.bufmem", "mem.bufmem")
	s.cached = u32("kbyte", "mem.util.cached")
	if s.swapIn = u32("", "swap.pagesin"); s.swapIn == nil {
		s.swapOp = 's'
		s.swapIn = u32("", "swap.in")
	}
	if s.swapOut = u32("", "swap.pagesout"); s.swapOut == nil {
		s.swapOp = 's'
		s.swapOut = u32("", "swap.out")
	}
	s.blkRead = u32("", "disk.all.blkread", "disk.all.read")
	s.blkWrite = u32("", "disk.all.blkwrite", "disk.all.write")
	s.intr = u32("", "kernel.all.intr")
	s.pswitch = u32("", "kernel.all.pswitch")
	s.nice = u64("kernel.all.cpu.nice")
	s.user = u64("kernel.all.cpu.user")
	s.cpuIntr = u64("kernel.all.cpu.intr")
	s.sys = u64("kernel.all.cpu.sys")
	s.idle = u64("kernel.all.cpu.idle")
	s.wait = u64("kernel.all.cpu.wait.total")
	s.steal = u64("kernel.all.cpu.steal")
	if s.load == nil && s.swapUsed == nil && s.free == nil && s.buf == nil &&
		s.cached == nil && s.swapIn == nil && s.swapOut == nil && s.blkRead == nil &&
		s.blkWrite == nil && s.intr == nil && s.pswitch == nil && s.nice == nil &&
		s.user == nil && s.cpuIntr == nil && s.sys == nil && s.idle == nil &&
		s.wait == nil && s.steal == nil {
		g.Close()
		return nil, &noMetricsError{name: name, swapOp: s.swapOp}
	}
	return s, nil
}

type createError struct{ err error }

func (e *createError) Error() string { return "Cannot create fetchgroup: " + pcp.TextOf(e.err) }
func (e *createError) Unwrap() error { return e.err }

// noMetricsError is a source with none of the report's metrics; swapOp
// is what looking for them found, which in PCP's pmstat (a global) still
// names the swap columns.
type noMetricsError struct {
	name   string
	swapOp byte
}

func (e *noMetricsError) Error() string { return fmt.Sprintf("%s: %s", e.name, errNoMetrics) }
func (e *noMetricsError) Unwrap() error { return errNoMetrics }

// hostName is the source's host name, asked for once.
func (s *stat) hostName(ctx context.Context) string {
	if s.name == "" && s.g != nil {
		s.name, _ = s.g.Source().HostName(ctx)
	}
	return s.name
}

func (s *stat) close() {
	if s.g != nil {
		s.g.Close()
		s.g = nil
	}
}

// bad reports whether an item has no value: not added, or not fetched.
func bad[T fetchgroup.Value](it *fetchgroup.Item[T]) bool { return it == nil || it.Err() != nil }

// reconnectable says whether a fetch error is one a host connection
// recovers from by reconnecting.
func reconnectable(err error) bool {
	return errors.Is(err, pcp.ErrIPC) || errors.Is(err, pcp.ErrTimeout)
}
