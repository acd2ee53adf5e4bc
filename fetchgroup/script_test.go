package fetchgroup

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmapi/derived"
)

// setMode runs a script's mode line on the group's archive context: the
// mode from the archive's start (its end for back) with the step given
// in seconds, as the harness calls pmSetModeHighRes.
func setMode(g *Group, f []string) error {
	a, ok := derived.Underlying(g.Source()).(*pmapi.ArchiveContext)
	if !ok {
		return pcp.ErrNotArchive
	}
	mode := map[string]pmapi.Mode{"interp": pmapi.ModeInterp, "forw": pmapi.ModeForw, "back": pmapi.ModeBack}[f[0]]
	var step float64
	if len(f) > 1 {
		step, _ = strconv.ParseFloat(f[1], 64)
	}
	when := a.Start()
	if mode == pmapi.ModeBack {
		end, err := a.End()
		if err != nil {
			return err
		}
		when = end
	}
	return a.SetMode(mode, when, time.Duration(math.Round(step*1e9)))
}

// The tests run scripts in the language of testdata/harness/fetchgroup.c
// through this package and print the outputs the way the harness prints
// libpcp's, so that the two transcripts can be compared line by line.

// code is the PCP error code of err, 0 for nil.
func code(err error) int32 {
	if err == nil {
		return 0
	}
	var pe pcp.Error
	if errors.As(err, &pe) {
		return int32(pe)
	}
	return -1
}

func formatValue[T Value](v T, err error) string {
	switch x := any(v).(type) {
	case float32:
		if math.IsNaN(float64(x)) {
			return "nan"
		}
		return cG(float64(x), 9)
	case float64:
		if math.IsNaN(x) {
			return "nan"
		}
		return cG(x, 17)
	case string:
		if x == "" && err != nil {
			return "(null)"
		}
		return strconv.Quote(x)
	}
	return fmt.Sprint(v)
}

// cG is C's %.*g.
func cG(v float64, prec int) string {
	switch {
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', prec, 64)
}

type reporter func(b *strings.Builder, i int)

func itemReporter[T Value](h *Item[T]) reporter {
	return func(b *strings.Builder, i int) {
		fmt.Fprintf(b, "h%d item %d %s\n", i, code(h.Err()), formatValue(h.Value(), h.Err()))
	}
}

func indomReporter[T Value](h *InDom[T]) reporter {
	return func(b *strings.Builder, i int) {
		fmt.Fprintf(b, "h%d indom %d %d\n", i, code(h.Err()), h.Len())
		for _, in := range h.Instances() {
			name := in.Name
			if name == "" {
				name = "(null)"
			}
			fmt.Fprintf(b, "  %d %s %d %s\n", in.Inst, name, code(in.Err), formatValue(in.Value, in.Err))
		}
	}
}

func eventReporter[T Value](h *Event[T]) reporter {
	return func(b *strings.Builder, i int) {
		fmt.Fprintf(b, "h%d event %d %d\n", i, code(h.Err()), h.Len())
		for _, f := range h.Fields() {
			t := "time"
			if f.Time.IsZero() {
				t = "notime"
			}
			fmt.Fprintf(b, "  %s %d %s\n", t, code(f.Err), formatValue(f.Value, f.Err))
		}
	}
}

func orNone(s string) string {
	if s == "-" {
		return ""
	}
	return s
}

func extendItem(ctx context.Context, g *Group, f []string) (reporter, error) {
	m, inst, scale := f[0], orNone(f[1]), orNone(f[2])
	switch f[3] {
	case "32":
		return wrapItem(ExtendItem[int32](ctx, g, m, inst, scale))
	case "u32":
		return wrapItem(ExtendItem[uint32](ctx, g, m, inst, scale))
	case "64":
		return wrapItem(ExtendItem[int64](ctx, g, m, inst, scale))
	case "u64":
		return wrapItem(ExtendItem[uint64](ctx, g, m, inst, scale))
	case "float":
		return wrapItem(ExtendItem[float32](ctx, g, m, inst, scale))
	case "double":
		return wrapItem(ExtendItem[float64](ctx, g, m, inst, scale))
	}
	return wrapItem(ExtendItem[string](ctx, g, m, inst, scale))
}

func wrapItem[T Value](h *Item[T], err error) (reporter, error) {
	if err != nil {
		return nil, err
	}
	return itemReporter(h), nil
}

func extendInDom(ctx context.Context, g *Group, f []string) (reporter, error) {
	m, scale := f[0], orNone(f[1])
	max, _ := strconv.Atoi(f[3])
	switch f[2] {
	case "32":
		return wrapInDom(ExtendInDom[int32](ctx, g, m, scale, max))
	case "u32":
		return wrapInDom(ExtendInDom[uint32](ctx, g, m, scale, max))
	case "64":
		return wrapInDom(ExtendInDom[int64](ctx, g, m, scale, max))
	case "u64":
		return wrapInDom(ExtendInDom[uint64](ctx, g, m, scale, max))
	case "float":
		return wrapInDom(ExtendInDom[float32](ctx, g, m, scale, max))
	case "double":
		return wrapInDom(ExtendInDom[float64](ctx, g, m, scale, max))
	}
	return wrapInDom(ExtendInDom[string](ctx, g, m, scale, max))
}

func wrapInDom[T Value](h *InDom[T], err error) (reporter, error) {
	if err != nil {
		return nil, err
	}
	return indomReporter(h), nil
}

func extendEvent(ctx context.Context, g *Group, f []string) (reporter, error) {
	m, inst, field, scale := f[0], orNone(f[1]), f[2], orNone(f[3])
	max, _ := strconv.Atoi(f[5])
	switch f[4] {
	case "32":
		return wrapEvent(ExtendEvent[int32](ctx, g, m, inst, field, scale, max))
	case "u32":
		return wrapEvent(ExtendEvent[uint32](ctx, g, m, inst, field, scale, max))
	case "64":
		return wrapEvent(ExtendEvent[int64](ctx, g, m, inst, field, scale, max))
	case "u64":
		return wrapEvent(ExtendEvent[uint64](ctx, g, m, inst, field, scale, max))
	case "float":
		return wrapEvent(ExtendEvent[float32](ctx, g, m, inst, field, scale, max))
	case "double":
		return wrapEvent(ExtendEvent[float64](ctx, g, m, inst, field, scale, max))
	}
	return wrapEvent(ExtendEvent[string](ctx, g, m, inst, field, scale, max))
}

func wrapEvent[T Value](h *Event[T], err error) (reporter, error) {
	if err != nil {
		return nil, err
	}
	return eventReporter(h), nil
}

// runScript runs a harness script on g; store runs a store command.
func runScript(t *testing.T, g *Group, script string, store func(metric, value string)) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	b.WriteString("create 0\n")
	var hs []reporter
	// Archive times are reproducible and printed, after fetches that
	// succeeded (a failed one stamps the clock's time).
	archive := g.Source() != nil && g.Source().Kind() == pmapi.KindArchive
	fetched := false
	for _, line := range strings.Split(script, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		var (
			r   reporter
			err error
		)
		switch f[0] {
		case "item":
			r, err = extendItem(ctx, g, f[1:])
		case "indom":
			r, err = extendInDom(ctx, g, f[1:])
		case "event":
			r, err = extendEvent(ctx, g, f[1:])
		case "ts":
			ts := g.ExtendTimestamp()
			r = func(b *strings.Builder, i int) {
				switch {
				case ts.Time().IsZero():
					fmt.Fprintf(b, "h%d ts zero\n", i)
				case archive && fetched:
					st := ts.Stamp()
					fmt.Fprintf(b, "h%d ts set %d.%06d\n", i, st.Sec, st.Nsec/1000)
				default:
					fmt.Fprintf(b, "h%d ts set\n", i)
				}
			}
		case "fetch":
			_, err := g.Fetch(ctx)
			fetched = err == nil
			fmt.Fprintf(&b, "fetch %d\n", code(err))
			for i, r := range hs {
				r(&b, i)
			}
			continue
		case "mode":
			fmt.Fprintf(&b, "mode %d\n", code(setMode(g, f[1:])))
			continue
		case "clear":
			g.Clear()
			hs = nil
			b.WriteString("clear 0\n")
			continue
		case "store":
			store(f[1], f[2])
			continue
		case "sleep":
			d, _ := strconv.ParseFloat(f[1], 64)
			time.Sleep(time.Duration(d * float64(time.Second)))
			continue
		default:
			t.Fatalf("bad script line %q", line)
		}
		fmt.Fprintf(&b, "extend %s %d\n", f[0], code(err))
		if err == nil {
			hs = append(hs, r)
		}
	}
	return b.String()
}
