package pmval

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// valuer is pmval's state: the metric, its instances and the sampling.
type valuer struct {
	num  []byte // float's digits
	f    *flags
	p    *cli.Parsed
	src  pmapi.Source
	out  *output
	errw io.Writer
	prog string
	kind pmapi.Kind
	host string
	spec *pmapi.MetricSpec
	// finish is -T's offset from the start, for a live source
	finish time.Duration

	metric  string
	pmid    pcp.PMID
	desc    pcp.Desc
	scale   float64 // counter rate conversion to seconds
	iall    bool
	inames  []string
	iids    []int32
	pairs   []pmapi.Instance // sorted by number
	byInst  map[int32]int    // scratch: a result's values by instance (valueIndex)
	events  bool
	cols    int
	style   int // instance label style, -1 until decided
	samples int
	wrap    int // PCP_COUNTER_WRAP, -1 until read

	// liveEnd is -T's end for a live source, zero without -T
	liveEnd pcp.Timestamp

	// archives
	archive    bool
	ac         *pmapi.ArchiveContext
	times      *cli.Times
	amode      pmapi.Mode
	rawArchive bool
	reporting  bool
	source     string

	nameCache map[int32]string
	descCache map[pcp.PMID]*paramDesc
	// stamp's storage: a line's time, and the parts of it that belong
	// to stampSec (valid if stampOK)
	stampBuf  []byte
	stampHead []byte
	stampYear []byte
	stampSec  int64
	stampOK   bool
	secsSeen  [2]secsEntry // see secs
	secsNext  int
	pmids     [1]pcp.PMID
}

func (v *valuer) main(ctx context.Context) int {
	if err := v.setup(ctx); err != nil {
		if st, ok := err.(exitStatus); ok {
			return int(st)
		}
		return 1
	}
	return v.loop(ctx)
}

func (v *valuer) fatal(format string, args ...any) error {
	fmt.Fprintf(v.errw, format, args...)
	return exitStatus(1)
}

func (v *valuer) setup(ctx context.Context) error {
	f, p := v.f, v.p
	v.samples = p.Samples
	if !p.SamplesSet && !f.nosamples {
		v.samples = -1
	} else if p.Samples == 0 && !f.nosamples {
		v.samples = -1
	}
	interval := p.IntervalDur
	if interval == 0 {
		interval = time.Second
	}
	v.p.IntervalDur = interval
	var origin, end time.Time
	if v.finish > 0 {
		// a fetch past -T's end ends the run, with or without -s
		origin = time.Now()
		end = origin.Add(v.finish)
		v.liveEnd = pcp.TimestampOf(end)
	}
	v.style = -1
	v.wrap = -1

	// initapi
	v.metric = v.spec.Metric
	v.iall = true
	if v.spec.Insts != nil && len(v.spec.Insts) > 0 {
		v.inames = v.spec.Insts
		v.iall = false
	} else if f.instsSet {
		// any -i, even one that names nothing (-i '' or -i ,), turns
		// the whole instance domain off, as pmval's context.iall = 0
		v.inames = f.insts
		v.iall = false
	}
	id, err := v.src.LookupName(ctx, v.metric)
	if err != nil {
		return v.fatal("%s: pmLookupName(%s): %s\n", v.prog, v.metric, pcp.TextOf(err))
	}
	v.pmid = id
	if v.desc, err = v.src.LookupDesc(ctx, id); err != nil {
		return v.fatal("%s: pmLookupDesc: %s\n", v.prog, pcp.TextOf(err))
	}
	if v.desc.InDom == pcp.InDomNull && len(v.spec.Insts) > 0 {
		return v.fatal("%s: %s: singular metrics do not have instances\n", v.prog, v.spec.Metric)
	}
	if v.desc.Type == pcp.TypeEvent || v.desc.Type == pcp.TypeHighResEvent {
		v.events = true
	}
	if v.finish > 0 && v.samples < 0 && !v.events {
		// as many fetches as fit in the window, and the one at its
		// start, computed on absolute times in seconds as PCP does;
		// not for events, which PCP's pmval fetches in its forward
		// mode, live too, until the window's end
		n := int(int32((timeReal(end) - timeReal(origin)) / interval.Seconds()))
		if n < 0 {
			n = 0
		} else {
			n++
		}
		v.samples = n
	}
	if v.desc.Sem == pcp.SemCounter {
		u := v.desc.Units
		switch {
		case u.DimTime == 0:
			v.scale = 1
		case u.ScaleTime > pcp.TimeSec:
			v.scale = math.Pow(60, float64(int(pcp.TimeSec)-int(u.ScaleTime)))
		default:
			v.scale = math.Pow(1000, float64(int(pcp.TimeSec)-int(u.ScaleTime)))
		}
		// PCP keeps the scale in a float
		v.scale = float64(float32(v.scale))
	}
	if err := v.initInsts(ctx); err != nil {
		return err
	}
	if err := v.initFilter(ctx); err != nil {
		return err
	}

	if v.archive {
		if err := v.archiveSetup(); err != nil {
			return err
		}
	}
	if !p.TimezoneSet && !p.HostZone && !v.events {
		v.out.WriteByte('\n')
	}
	if p.GuiMode || p.GuiPort != 0 {
		return v.timeControl()
	}
	v.cols = f.cols
	if v.cols <= 0 {
		w, ok := howide(v.desc.Type)
		if !ok {
			return v.fatal("pmval: unknown performance metric value type %s\n", v.desc.Type)
		}
		v.cols = w
	}
	if (f.fixed == 0 && f.fixed > v.cols) || (f.fixed > 0 && f.fixed > v.cols-2) {
		return v.fatal("%s: -f %d too large for column width %d\n", v.prog, f.fixed, v.cols)
	}
	v.header()
	return nil
}

// howide is the column width of a type's values.
func howide(t pcp.Type) (int, bool) {
	switch t {
	case pcp.Type32, pcp.TypeU32:
		return 11, true
	case pcp.Type64, pcp.TypeU64, pcp.TypeDouble, pcp.TypeString, pcp.TypeAggregate, pcp.TypeAggregateStatic:
		return 21, true
	case pcp.TypeFloat:
		return 13, true
	case pcp.TypeEvent, pcp.TypeHighResEvent:
		return 0, true
	}
	return 0, false
}

// initInsts finds the instances to report, sorted by number: those named,
// which go into the profile, or all of the instance domain.
func (v *valuer) initInsts(ctx context.Context) error {
	v.pairs = nil
	if v.desc.InDom == pcp.InDomNull {
		return nil
	}
	if !v.iall {
		v.iids = v.iids[:0]
		for _, name := range v.inames {
			var n int32
			var err error
			if v.archive {
				n, err = v.ac.LookupInDomArchive(v.desc.InDom, name)
			} else {
				n, err = v.src.LookupInDom(ctx, v.desc.InDom, name)
			}
			if err != nil {
				return v.fatal("%s: instance %s not available\n", v.prog, name)
			}
			v.iids = append(v.iids, n)
			v.pairs = append(v.pairs, pmapi.Instance{Inst: n, Name: name})
		}
		if err := v.src.AddProfile(v.desc.InDom, v.iids); err != nil {
			return v.fatal("%s: pmAddProfile: %s\n", v.prog, pcp.TextOf(err))
		}
	} else {
		var insts []pmapi.Instance
		var err error
		if v.archive {
			insts, err = v.ac.GetInDomArchive(v.desc.InDom)
		} else {
			insts, err = v.src.GetInDom(ctx, v.desc.InDom)
		}
		if err != nil {
			return v.fatal("%s: pmGetInDom(%s): %s\n", v.prog, v.desc.InDom, pcp.TextOf(err))
		}
		v.pairs = insts
	}
	slices.SortStableFunc(v.pairs, func(a, b pmapi.Instance) int { return int(a.Inst) - int(b.Inst) })
	return nil
}

// initFilter is -x: the filter value stored to the metric, for hosts.
func (v *valuer) initFilter(ctx context.Context) error {
	if !v.f.filterSet || v.kind != pmapi.KindHost {
		return nil
	}
	t := v.desc.Type
	var atom pcp.Atom
	if v.events {
		t = pcp.TypeString
		atom.CP = v.f.filter
	} else {
		var err error
		atom, err = pmapi.StringValue(v.f.filter, t)
		switch {
		case err == nil:
		case errors.Is(err, pcp.ErrType):
			return v.fatal("%s: filter \"%s\" incompatible with metric type (PM_TYPE_%s)\n", v.prog, v.f.filter, t)
		case isRange(err):
			return v.fatal("%s: filter value \"%s\" is out of range for metric data type (PM_TYPE_%s)\n", v.prog, v.f.filter, t)
		default:
			return v.fatal("%s: failed to convert value \"%s\": %s\n", v.prog, v.f.filter, pcp.TextOf(err))
		}
	}
	vs := pcp.ValueSet{PMID: v.pmid}
	insts := []int32{pcp.InstNull}
	if !v.iall && len(v.iids) > 0 {
		insts = v.iids
	}
	for _, inst := range insts {
		val, vf, err := pmapi.StuffValue(atom, t, inst)
		if err != nil {
			return v.fatal("%s: stuff value \"%s\" failed: %s\n", v.prog, v.f.filter, pcp.TextOf(err))
		}
		vs.Values = append(vs.Values, val)
		vs.ValFmt = vf
	}
	vs.NumVal = int32(len(vs.Values))
	if err := v.src.Store(ctx, &pcp.Result{Sets: []pcp.ValueSet{vs}}); err != nil {
		return v.fatal("%s: store value \"%s\" failed: %s\n", v.prog, v.f.filter, pcp.TextOf(err))
	}
	return nil
}

func (v *valuer) rate() bool { return !v.f.raw && v.desc.Sem == pcp.SemCounter }

// header is pmval's printhdr.
func (v *valuer) header() {
	w := v.out
	if !v.events {
		fmt.Fprintf(w, "metric:    %s\n", v.metric)
	}
	if v.archive {
		fmt.Fprintf(w, "archive:   %s\n", v.source)
	}
	fmt.Fprintf(w, "host:      %s\n", v.host)
	if v.archive {
		fmt.Fprintf(w, "start:     %s", v.ctime(v.times.Window.Origin.Sec))
		if v.times.Window.End.Sec != cli.MaxTime {
			fmt.Fprintf(w, "end:       %s", v.ctime(v.times.Window.End.Sec))
		}
	}
	if !v.events {
		w.WriteString("semantics: ")
		switch v.desc.Sem {
		case pcp.SemCounter:
			w.WriteString("cumulative counter")
			if !v.f.raw {
				w.WriteString(" (converting to rate)")
			}
		case pcp.SemInstant:
			w.WriteString("instantaneous value")
		case pcp.SemDiscrete:
			w.WriteString("discrete instantaneous value")
		default:
			w.WriteString("unknown")
		}
		w.WriteByte('\n')
		u := v.desc.Units
		fmt.Fprintf(w, "units:     %s", unitsStr(u))
		if v.rate() {
			w.WriteString(" (converting to ")
			if u.DimTime == 0 {
				u.ScaleTime = pcp.TimeSec
			}
			u.DimTime--
			if u.DimSpace == 0 && u.DimTime == 0 && u.DimCount == 0 {
				w.WriteString("time utilization)")
			} else {
				fmt.Fprintf(w, "%s)", unitsStr(u))
			}
		}
		w.WriteByte('\n')
	}
	if v.samples < 0 {
		w.WriteString("samples:   all\n")
	} else {
		fmt.Fprintf(w, "samples:   %d\n", v.samples)
	}
	if v.samples > 1 && (!v.archive || v.amode == pmapi.ModeInterp) {
		fmt.Fprintf(w, "interval:  %1.2f sec\n", v.p.IntervalDur.Seconds())
	}
}

func unitsStr(u pcp.Units) string {
	if s := u.String(); s != "" {
		return s
	}
	return "none"
}

// The outcomes of fetch besides a value set.
const (
	fetchNone  = -1 // nothing to report this time (said so)
	fetchEnd   = -2 // past the end of the time window
	fetchDone  = -3 // the end of the archive: pmval exits quietly
	fetchFatal = -4 // the error was reported; pmval exits with 1
)

// fetch is pmval's getvals: a fetch of the metric with its values sorted
// by instance, or one of the fetch* outcomes.
func (v *valuer) fetch(ctx context.Context, r *pcp.Result) (*pcp.ValueSet, int) {
	i := 0
	var err error
	if v.rawArchive {
		i, err = v.fetchRaw(ctx, r)
		if err == nil && i < 0 {
			return nil, fetchNone
		}
	} else {
		// the one-element list kept in the valuer: a literal passed
		// through the Source interface escaped, an allocation a fetch
		v.pmids[0] = v.pmid
		_, err = v.src.Fetch(ctx, v.pmids[:], r)
	}
	if err != nil {
		if errors.Is(err, pcp.ErrEOL) {
			return nil, fetchDone
		}
		call := "pmFetch"
		if v.rawArchive {
			call = "pmFetchArchive"
		}
		fmt.Fprintf(v.errw, "\n%s: %s: %s\n", v.prog, call, pcp.TextOf(err))
		return nil, fetchFatal
	}
	if v.archive && r.Timestamp.Sub(v.times.Window.End) > 0 {
		return nil, fetchEnd
	}
	if !v.archive && v.liveEnd.Sec != 0 && r.Timestamp.Sub(v.liveEnd) > 0 {
		// past -T's end, as a slow fetch can be
		return nil, fetchEnd
	}
	vs := &r.Sets[i]
	switch {
	case vs.NumVal == 0:
		if v.archive {
			v.stamp(r.Timestamp)
			v.out.WriteString("  ")
		}
		if !v.events {
			v.out.WriteString("No values available\n")
		} else if v.f.verbose {
			fmt.Fprintf(v.out, "%s: No values available\n", v.metric)
		}
		return nil, fetchNone
	case vs.NumVal < 0:
		if v.events && vs.NumVal == int32(pcp.ErrNotConn) {
			return nil, fetchDone
		}
		call := "pmFetch"
		if v.rawArchive {
			call = "pmFetchArchive"
		}
		fmt.Fprintf(v.errw, "\n%s: %s: %s\n", v.prog, call, pcp.ErrorText(vs.NumVal))
		return nil, fetchNone
	}
	// mostly in order already, as a logger or an agent gives them
	if !slices.IsSortedFunc(vs.Values, byInst) {
		slices.SortStableFunc(vs.Values, byInst)
	}
	return vs, 0
}

func byInst(a, b pcp.Value) int { return cmp.Compare(a.Inst, b.Inst) }

// loop is pmval's main loop: fetch, wait, fetch and print, with rates
// from the previous fetch for counters. It returns the exit status.
func (v *valuer) loop(ctx context.Context) int {
	var prev, cur pcp.Result
	havePrev, noValues := false, false
	var prevSet *pcp.ValueSet
	forever := v.samples < 0
	n := v.samples
	for forever || n > 0 {
		n--
		if !havePrev {
			vs, st := v.fetch(ctx, &prev)
			switch {
			case st == 0:
				havePrev = true
				prevSet = vs
				if v.desc.InDom != pcp.InDomNull {
					v.labels()
				}
				switch {
				case v.events:
					if v.archive {
						v.stamp(prev.Timestamp)
						v.out.WriteString("  ")
					}
					v.printEvents(ctx, vs)
					v.reporting = true
					v.out.sampleDone()
					continue
				case !v.rate():
					if v.archive {
						v.stamp(prev.Timestamp)
					}
					v.printValues(vs)
					v.reporting = true
					v.out.sampleDone()
					continue
				case noValues || v.reporting:
					if v.archive {
						v.stamp(prev.Timestamp)
						v.out.WriteString("  ")
					}
					v.out.WriteString("No values available\n")
				}
				noValues = false
			case st == fetchEnd:
				return 0
			case st == fetchDone:
				return 0
			case st == fetchFatal:
				return 1
			default:
				noValues = true
			}
		}
		v.out.sampleDone()
		if v.f.delay || !v.archive {
			sleep(ctx, v.p.IntervalDur)
		}
		if !havePrev {
			continue
		}
		vs, st := v.fetch(ctx, &cur)
		switch st {
		case fetchEnd, fetchDone:
			return 0
		case fetchFatal:
			return 1
		case fetchNone:
			havePrev = false
			continue
		}
		if v.iall && !v.knownInsts(vs) {
			v.initInsts(ctx)
			v.labels()
		}
		if v.archive {
			v.stamp(cur.Timestamp)
			if v.events {
				v.out.WriteString("  ")
			}
		}
		switch {
		case v.events:
			v.printEvents(ctx, vs)
		case !v.rate():
			v.printValues(vs)
		default:
			v.printRates(vs, cur.Timestamp, prevSet, prev.Timestamp)
		}
		v.reporting = true
		v.out.sampleDone()
		// this value becomes the previous one
		prev, cur = cur, prev
		prevSet = vs
	}
	return 0
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// knownInsts is pmval's chkinsts: whether every value's instance has a
// name.
func (v *valuer) knownInsts(vs *pcp.ValueSet) bool {
	if v.desc.InDom == pcp.InDomNull || v.events {
		return true
	}
	for _, val := range vs.Values {
		if !slices.ContainsFunc(v.pairs, func(p pmapi.Instance) bool { return p.Inst == val.Inst }) {
			return false
		}
	}
	return true
}

// labels prints the instance names as column headings.
func (v *valuer) labels() {
	if v.events {
		return
	}
	w := v.out
	cols := v.cols
	if v.style == -1 {
		v.style = 0
		for _, p := range v.pairs {
			if len(p.Name) > cols {
				v.style = 2
				break
			}
			if len(p.Name) > cols-3 {
				v.style = 1
			}
		}
		if v.style == 2 {
			for i, p := range v.pairs {
				fmt.Fprintf(w, "full label for instance[%d]: %s\n", i, p.Name)
			}
		}
	}
	w.WriteByte('\n')
	for i, p := range v.pairs {
		if v.archive && i == 0 {
			switch {
			case v.f.xflag > 1:
				fmt.Fprintf(w, "%*c", 34, ' ')
			case v.f.xflag == 1:
				fmt.Fprintf(w, "%*c", 31, ' ')
			default:
				fmt.Fprintf(w, "%*c", 12, ' ')
			}
		}
		if !v.rate() || v.style != 0 || v.f.fixed != -1 {
			w.column(p.Name, cols, cols)
			w.WriteByte(' ')
		} else {
			// shifted left for the decimal places of a rate
			w.column(p.Name, cols-3, cols-3)
			w.WriteString("    ")
		}
	}
	if len(v.pairs) > 0 {
		w.WriteByte('\n')
	}
}

// real is pmval's printreal: a double in a column, with a layout that
// keeps the decimal points of rates lined up unless -f fixes the digits.
func (v *valuer) real(x float64, sem pcp.Sem, width int) {
	w := v.out
	if x < 0 && sem == pcp.SemCounter {
		w.pad(width - 1)
		w.WriteByte('!')
		return
	}
	if math.IsInf(x, 0) || math.IsNaN(x) {
		v.special(x, width)
		return
	}
	if v.f.fixed != -1 {
		v.float(x, 'f', v.f.fixed, width, "")
		return
	}
	switch {
	case x == 0:
		v.float(x, 'f', 0, width-5, ".0   ")
	case x < 0.1 || x > 9999:
		v.float(x, 'E', 3, width, "")
	case x <= 0.9999:
		v.float(x, 'f', 4, width, "")
	case x <= 9.999:
		v.float(x, 'f', 3, width-1, " ")
	case x <= 99.99:
		v.float(x, 'f', 2, width-2, "  ")
	case x <= 999.9:
		v.float(x, 'f', 1, width-3, "   ")
	default:
		v.float(x, 'f', 0, width-5, ".    ")
	}
}

// float prints x as printf's %*.<prec><f> does with a finite x, then
// tail: strconv's digits are fmt's, without fmt's per-call cost, as
// every value of every line goes through here.
func (v *valuer) float(x float64, f byte, prec, width int, tail string) {
	if width < 0 {
		fmt.Fprintf(v.out, "%*.*"+string(f)+"%s", width, prec, x, tail)
		return
	}
	var b []byte
	if f == 'f' {
		b = appendFixed(v.num[:0], x, prec)
	} else {
		b = strconv.AppendFloat(v.num[:0], x, f, prec, 64)
	}
	v.out.pad(width - len(b))
	v.out.Write(b)
	v.out.WriteString(tail)
	v.num = b
}

// special prints an infinity or a NaN as C's printf does under the
// format printreal picks for it: infinities take the %E branch (upper
// case), a NaN fails every comparison and lands in the last, %f branch
// followed by ".    "; with -f both are %f (lower case).
func (v *valuer) special(x float64, width int) {
	text := "inf"
	if math.IsNaN(x) {
		text = "nan"
	}
	if math.Signbit(x) {
		text = "-" + text
	}
	// (pad and WriteString, not fmt's %*s, which would build a -w of
	// a billion columns in memory)
	switch {
	case v.f.fixed != -1:
		v.out.pad(width - len(text))
		v.out.WriteString(text)
	case math.IsNaN(x):
		v.out.pad(width - 5 - len(text))
		v.out.WriteString(text)
		v.out.WriteString(".    ")
	default:
		v.out.pad(width - len(text))
		v.out.WriteString(strings.ToUpper(text))
	}
}

func (v *valuer) doReal() bool {
	return v.desc.Type == pcp.TypeFloat || v.desc.Type == pcp.TypeDouble
}

// value prints one value in a column: floats through real, the rest as
// pmPrintValue does.
func (v *valuer) value(vs *pcp.ValueSet, val *pcp.Value, width int) {
	if v.doReal() {
		a, err := pcp.ExtractValue(vs.ValFmt, val, v.desc.Type, pcp.TypeDouble)
		if err != nil {
			fmt.Fprintf(v.errw, "%s:printvals pmExtractValue: %s\n", v.prog, pcp.TextOf(err))
			v.out.Flush()
			os.Exit(1)
		}
		v.real(a.D, v.desc.Sem, width)
		return
	}
	pcp.WriteValue(v.out, vs.ValFmt, v.desc.Type, val, width)
}

// printValues is pmval's printvals.
func (v *valuer) printValues(vs *pcp.ValueSet) {
	w := v.out
	if v.desc.InDom == pcp.InDomNull {
		if vs.NumVal == 1 {
			v.value(vs, &vs.Values[0], v.cols)
		} else {
			w.column("?", v.cols, -1)
		}
		w.WriteByte('\n')
		return
	}
	// each instance's value found through an index of the values by
	// instance (the first of an instance's, as a search finds it):
	// a search through the values for each instance was a quarter of
	// pmval's CPU over 20180102's hundreds of processes
	find := v.valueIndex(vs)
	for _, p := range v.pairs {
		if j := find(p.Inst); j >= 0 {
			v.value(vs, &vs.Values[j], v.cols)
		} else {
			w.column("?", v.cols, -1)
		}
		w.WriteByte(' ')
	}
	w.WriteByte('\n')
	if !v.iall {
		return
	}
	for j := range vs.Values {
		// pairs is sorted by instance number
		if _, ok := slices.BinarySearchFunc(v.pairs, vs.Values[j].Inst, func(p pmapi.Instance, inst int32) int { return cmp.Compare(p.Inst, inst) }); ok {
			continue
		}
		w.WriteString("Warning: value=")
		v.value(vs, &vs.Values[j], 1)
		fmt.Fprintf(w, ", but instance=%d is unknown\n", vs.Values[j].Inst)
	}
}

// valueIndex returns a function giving the position of the first of
// vs's values for an instance, -1 for none: a search for few values, an
// index (kept from call to call) for many.
func (v *valuer) valueIndex(vs *pcp.ValueSet) func(int32) int {
	if len(vs.Values) <= 16 {
		return func(inst int32) int {
			return slices.IndexFunc(vs.Values, func(x pcp.Value) bool { return x.Inst == inst })
		}
	}
	if v.byInst == nil {
		v.byInst = map[int32]int{}
	}
	clear(v.byInst)
	for j := len(vs.Values) - 1; j >= 0; j-- {
		v.byInst[vs.Values[j].Inst] = j
	}
	return func(inst int32) int {
		if j, ok := v.byInst[inst]; ok {
			return j
		}
		return -1
	}
}

// printRate is pmval's printrate: the change per second of a counter.
func (v *valuer) printRate(valfmt pcp.ValFmt, cur, prev *pcp.Value, delta float64, width int) {
	a, err := pcp.ExtractValue(valfmt, cur, v.desc.Type, pcp.TypeDouble)
	if err != nil {
		fmt.Fprintf(v.errw, "%s:printrate prev pmExtractValue: %s\n", v.prog, pcp.TextOf(err))
		v.out.Flush()
		os.Exit(1)
	}
	b, err := pcp.ExtractValue(valfmt, prev, v.desc.Type, pcp.TypeDouble)
	if err != nil {
		fmt.Fprintf(v.errw, "%s:printrate this pmExtractValue: %s\n", v.prog, pcp.TextOf(err))
		v.out.Flush()
		os.Exit(1)
	}
	if v.wrap == -1 && a.D < b.D {
		// pmval reads the variable at the first counter that goes down
		v.wrap = 0
		if cli.CounterWrap() {
			v.wrap = 1
		}
	}
	x, _ := pcp.CounterDelta(v.desc.Type, a.D, b.D, v.wrap == 1)
	v.real(x/delta, pcp.SemCounter, width)
}

// secs is stampReal remembered for the last two times: a rate's earlier
// time is the later one of the rate before.
func (v *valuer) secs(t pcp.Timestamp) float64 {
	for _, c := range v.secsSeen {
		if c.ok && c.t == t {
			return c.secs
		}
	}
	x := stampReal(t)
	v.secsSeen[v.secsNext] = secsEntry{t, x, true}
	v.secsNext ^= 1
	return x
}

type secsEntry struct {
	t    pcp.Timestamp
	secs float64
	ok   bool
}

// printRates is pmval's printrates.
func (v *valuer) printRates(cur *pcp.ValueSet, curTime pcp.Timestamp, prev *pcp.ValueSet, prevTime pcp.Timestamp) {
	w := v.out
	delta := float64(float32(v.scale)) * (v.secs(curTime) - v.secs(prevTime))
	if v.desc.InDom == pcp.InDomNull {
		if cur.NumVal == 1 && prev.NumVal == 1 {
			v.printRate(cur.ValFmt, &cur.Values[0], &prev.Values[0], delta, v.cols)
		} else {
			w.column("?", v.cols, -1)
		}
		w.WriteByte('\n')
		return
	}
	for _, p := range v.pairs {
		j := slices.IndexFunc(cur.Values, func(x pcp.Value) bool { return x.Inst == p.Inst })
		k := -1
		if j >= 0 {
			k = slices.IndexFunc(prev.Values, func(x pcp.Value) bool { return x.Inst == p.Inst })
		}
		if j >= 0 && k >= 0 {
			v.printRate(cur.ValFmt, &cur.Values[j], &prev.Values[k], delta, v.cols)
		} else {
			w.column("?", v.cols, -1)
		}
		w.WriteByte(' ')
	}
	w.WriteByte('\n')
	for j := range cur.Values {
		if !v.iall || slices.ContainsFunc(v.pairs, func(p pmapi.Instance) bool { return p.Inst == cur.Values[j].Inst }) {
			continue
		}
		if j < len(prev.Values) && cur.Values[j].Inst == prev.Values[j].Inst {
			w.WriteString("Warning: value=")
			v.printRate(cur.ValFmt, &cur.Values[j], &prev.Values[j], delta, 1)
			fmt.Fprintf(w, ", but instance=%d is unknown\n", cur.Values[j].Inst)
		}
	}
}
