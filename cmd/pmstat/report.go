package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gopcp/gopcp/fetchgroup"
	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// reporter prints the report of every source, a line each per interval.
type reporter struct {
	out      *bufio.Writer
	stats    []*stat
	kind     pmapi.Kind
	xcpu     bool
	tail     bool
	pause    bool
	rows     int // lines between headers
	interval time.Duration
	loc      *time.Location
	forever  bool // no end to the samples (no -s, and -T's window none)
	// swapOp names the swap columns: 'p' (pages), or 's' once any
	// source tried, even one then dropped, had only swap.in/out, as
	// PCP's pmstat keeps it in a global
	swapOp byte
}

// newStat makes one source's fetchgroup, noting how it names swapping.
func (r *reporter) newStat(ctx context.Context, p *cli.Parsed, kind pmapi.Kind, name string) (*stat, error) {
	s, err := newStat(ctx, p, kind, name)
	var nm *noMetricsError
	switch {
	case s != nil && s.swapOp == 's', errors.As(err, &nm) && nm.swapOp == 's':
		r.swapOp = 's'
	}
	return s, err
}

func (r *reporter) report(ctx context.Context, samples int, sleep func(time.Duration)) int {
	for _, s := range r.stats {
		s.g.Fetch(ctx)
	}
	n := len(r.stats)
	r.forever = samples == 0
	for it := 0; samples == 0 || it < samples; it++ {
		if it*n%r.rows < n {
			r.header()
		}
		r.out.Flush()
		if r.kind != pmapi.KindArchive || r.pause {
			sleep(r.interval)
		}
		for _, s := range r.stats {
			if n > 1 {
				name := s.hostName(ctx)
				if r.tail && len(name) > 7 {
					name = name[len(name)-7:]
				} else if !r.tail && len(name) > 7 {
					name = name[:7]
				}
				fmt.Fprintf(r.out, "%-7s", name)
				if s.g == nil {
					r.out.WriteByte('\n')
					continue
				}
			}
			if _, err := s.g.Fetch(ctx); err != nil {
				if !r.fetchFailed(ctx, s, err) {
					return 1
				}
				continue
			}
			s.fetched = true
			r.line(s)
		}
	}
	return 0
}

// fetchFailed reports a failed fetch as PCP's pmstat does; false when no
// source is left.
func (r *reporter) fetchFailed(ctx context.Context, s *stat, err error) bool {
	switch {
	case r.kind == pmapi.KindHost && reconnectable(err):
		r.out.WriteString(" Fetch failed. Reconnecting ...\n")
		if c, ok := s.g.Source().(interface{ Reconnect(context.Context) error }); ok {
			c.Reconnect(ctx)
		}
		return true
	case r.kind == pmapi.KindArchive && errors.Is(err, pcp.ErrEOL) && !s.fetched:
		r.out.WriteString(" No data in the archive\n")
		if !r.forever {
			return true
		}
		// With no end to the samples PCP's pmstat says this for ever,
		// as nothing more will come: ours says it once and drops the
		// archive, ending (exit 1) when it was the last source.
	default:
		fmt.Fprintf(r.out, " pmFetchGroup: %s\n", pcp.TextOf(err))
	}
	s.hostName(ctx)
	s.close()
	for _, o := range r.stats {
		if o.g != nil {
			return true
		}
	}
	r.out.Flush()
	return false
}

func (r *reporter) header() {
	s := r.stats[0]
	// the first source's time, rounded to the second
	t := s.ts.Stamp()
	sec := int64(float64(t.Sec) + 0.5 + float64(t.Nsec/1000)/1e6)
	fmt.Fprintf(r.out, "@ %s\n", time.Unix(sec, 0).In(r.loc).Format("Mon Jan _2 15:04:05 2006"))
	cpu := 12
	if r.xcpu {
		cpu = 20
	}
	op := r.swapOp
	if len(r.stats) > 1 {
		fmt.Fprintf(r.out, "%-7s%8s%21s%10s%10s%10s%*s\n", "node", "loadavg", "memory", "swap", "io", "system", cpu, "cpu")
		fmt.Fprintf(r.out, "%8s%7s %6s %6s %6s   %c%1s   %c%1s %4s %4s %4s %4s %3s %3s %3s",
			"", "1 min", "swpd", "buff", "cache", op, "i", op, "o", "bi", "bo", "in", "cs", "us", "sy", "id")
	} else {
		fmt.Fprintf(r.out, "%8s%28s%10s%10s%10s%*s\n", "loadavg", "memory", "swap", "io", "system", cpu, "cpu")
		fmt.Fprintf(r.out, " %7s %6s %6s %6s %6s   %c%1s   %c%1s %4s %4s %4s %4s %3s %3s %3s",
			"1 min", "swpd", "free", "buff", "cache", op, "i", op, "o", "bi", "bo", "in", "cs", "us", "sy", "id")
	}
	if r.xcpu {
		fmt.Fprintf(r.out, " %3s %3s", "wa", "st")
	}
	r.out.WriteByte('\n')
}

// line prints one source's values.
func (r *reporter) line(s *stat) {
	w := r.out
	if bad(s.load) {
		fmt.Fprintf(w, " %7.7s", "?")
	} else {
		fmt.Fprintf(w, " %7.2f", float64(s.load.Value()))
	}
	scaleK(w, s.swapUsed)
	scaleK(w, s.free)
	if len(r.stats) <= 1 {
		scaleK(w, s.buf)
	}
	scaleK(w, s.cached)
	for _, it := range []*fetchgroup.Item[uint32]{s.swapIn, s.swapOut, s.blkRead, s.blkWrite, s.intr, s.pswitch} {
		scale(w, it)
	}
	failed := bad(s.user) || bad(s.sys) || bad(s.idle)
	opt := func(it *fetchgroup.Item[uint64]) uint64 {
		if bad(it) {
			return 0
		}
		return it.Value()
	}
	nice, intr, wait, steal := opt(s.nice), opt(s.cpuIntr), opt(s.wait), opt(s.steal)
	var user, sys, idle, total uint64
	if !failed {
		user, sys, idle = s.user.Value(), s.sys.Value(), s.idle.Value()
		total = nice + user + intr + sys + idle + wait + steal
		// PCP divides by the total unchecked; a total of zero has no
		// percentages
		failed = total == 0
	}
	pct := func(v uint64) uint { return uint((100*v + total/2) / total) }
	switch {
	case r.xcpu && failed:
		fmt.Fprintf(w, " %3.3s %3.3s %3.3s %3.3s %3.3s", "?", "?", "?", "?", "?")
	case r.xcpu:
		fmt.Fprintf(w, " %3d %3d %3d %3d %3d", pct(nice+user), pct(intr+sys), pct(idle), pct(wait), pct(steal))
	case failed:
		fmt.Fprintf(w, " %3.3s %3.3s %3.3s", "?", "?", "?")
	default:
		fmt.Fprintf(w, " %3d %3d %3d", pct(nice+user), pct(intr+sys+steal), pct(idle+wait))
	}
	w.WriteByte('\n')
}

// scale prints a count in four columns, in thousands or millions when it
// is too wide.
func scale(w *bufio.Writer, it *fetchgroup.Item[uint32]) {
	if bad(it) {
		fmt.Fprintf(w, " %4.4s", "?")
		return
	}
	v := uint64(it.Value())
	switch {
	case v < 10000:
		fmt.Fprintf(w, " %4d", v)
	case v/1000 < 1000:
		fmt.Fprintf(w, " %3dK", v/1000)
	default:
		fmt.Fprintf(w, " %3dM", v/1000000)
	}
}

// scaleK prints kilobytes in six columns, in megabytes or gigabytes when
// too wide.
func scaleK(w *bufio.Writer, it *fetchgroup.Item[uint32]) {
	if bad(it) {
		fmt.Fprintf(w, " %6.6s", "?")
		return
	}
	v := uint64(it.Value())
	switch {
	case v < 1000000:
		fmt.Fprintf(w, " %6d", v)
	case v/1024 < 100000:
		fmt.Fprintf(w, " %5dm", v/1024)
	default:
		fmt.Fprintf(w, " %5dg", v/1024/1024)
	}
}
