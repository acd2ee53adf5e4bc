package fetchgroup

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"syscall"
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

// errInval is libpcp's answer to a negative maximum.
var errInval = pcp.Error(-int32(syscall.EINVAL))

// The harness's scripts give libpcp's indom and event extensions the
// maximum count of outputs the C API needs; the Go handles have none and
// deliver every output. The reporters apply the script's maximum as
// libpcp does, so that the rest of the transcripts can be compared: more
// instances than the maximum are pcp.ErrTooBig with none delivered, more
// event fields pcp.ErrTooBig with the first ones delivered.

func indomReporter[T Value](h *InDom[T], max int) reporter {
	return func(b *strings.Builder, i int) {
		ins, err := h.Instances(), h.Err()
		if err == nil && len(ins) > max {
			ins, err = nil, pcp.ErrTooBig
		}
		fmt.Fprintf(b, "h%d indom %d %d\n", i, code(err), len(ins))
		for _, in := range ins {
			name := in.Name
			if name == "" {
				name = "(null)"
			}
			fmt.Fprintf(b, "  %d %s %d %s\n", in.Inst, name, code(in.Err), formatValue(in.Value, in.Err))
		}
	}
}

func eventReporter[T Value](h *Event[T], max int) reporter {
	return func(b *strings.Builder, i int) {
		fs, err := h.Fields(), h.Err()
		if err == nil && len(fs) > max {
			fs, err = fs[:max], pcp.ErrTooBig
		}
		fmt.Fprintf(b, "h%d event %d %d\n", i, code(err), len(fs))
		for _, f := range fs {
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
	m, o := f[0], &ItemOptions{Instance: orNone(f[1]), Scale: orNone(f[2])}
	switch f[3] {
	case "32":
		return wrapItem(ExtendItem[int32](ctx, g, m, o))
	case "u32":
		return wrapItem(ExtendItem[uint32](ctx, g, m, o))
	case "64":
		return wrapItem(ExtendItem[int64](ctx, g, m, o))
	case "u64":
		return wrapItem(ExtendItem[uint64](ctx, g, m, o))
	case "float":
		return wrapItem(ExtendItem[float32](ctx, g, m, o))
	case "double":
		return wrapItem(ExtendItem[float64](ctx, g, m, o))
	}
	return wrapItem(ExtendItem[string](ctx, g, m, o))
}

func wrapItem[T Value](h *Item[T], err error) (reporter, error) {
	if err != nil {
		return nil, err
	}
	return itemReporter(h), nil
}

func extendInDom(ctx context.Context, g *Group, f []string) (reporter, error) {
	m, o := f[0], &InDomOptions{Scale: orNone(f[1])}
	max, _ := strconv.Atoi(f[3])
	if max < 0 {
		return nil, errInval
	}
	switch f[2] {
	case "32":
		return wrapInDom[int32](max)(ExtendInDom[int32](ctx, g, m, o))
	case "u32":
		return wrapInDom[uint32](max)(ExtendInDom[uint32](ctx, g, m, o))
	case "64":
		return wrapInDom[int64](max)(ExtendInDom[int64](ctx, g, m, o))
	case "u64":
		return wrapInDom[uint64](max)(ExtendInDom[uint64](ctx, g, m, o))
	case "float":
		return wrapInDom[float32](max)(ExtendInDom[float32](ctx, g, m, o))
	case "double":
		return wrapInDom[float64](max)(ExtendInDom[float64](ctx, g, m, o))
	}
	return wrapInDom[string](max)(ExtendInDom[string](ctx, g, m, o))
}

func wrapInDom[T Value](max int) func(*InDom[T], error) (reporter, error) {
	return func(h *InDom[T], err error) (reporter, error) {
		if err != nil {
			return nil, err
		}
		return indomReporter(h, max), nil
	}
}

func extendEvent(ctx context.Context, g *Group, f []string) (reporter, error) {
	m, field, o := f[0], f[2], &EventOptions{Instance: orNone(f[1]), Scale: orNone(f[3])}
	max, _ := strconv.Atoi(f[5])
	if max < 0 {
		return nil, errInval
	}
	switch f[4] {
	case "32":
		return wrapEvent[int32](max)(ExtendEvent[int32](ctx, g, m, field, o))
	case "u32":
		return wrapEvent[uint32](max)(ExtendEvent[uint32](ctx, g, m, field, o))
	case "64":
		return wrapEvent[int64](max)(ExtendEvent[int64](ctx, g, m, field, o))
	case "u64":
		return wrapEvent[uint64](max)(ExtendEvent[uint64](ctx, g, m, field, o))
	case "float":
		return wrapEvent[float32](max)(ExtendEvent[float32](ctx, g, m, field, o))
	case "double":
		return wrapEvent[float64](max)(ExtendEvent[float64](ctx, g, m, field, o))
	}
	return wrapEvent[string](max)(ExtendEvent[string](ctx, g, m, field, o))
}

func wrapEvent[T Value](max int) func(*Event[T], error) (reporter, error) {
	return func(h *Event[T], err error) (reporter, error) {
		if err != nil {
			return nil, err
		}
		return eventReporter(h, max), nil
	}
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
