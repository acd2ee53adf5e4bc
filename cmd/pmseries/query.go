package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/series"
	"github.com/gopcp/gopcp/series/resp"
)

func query(ctx context.Context, c resp.Client, o *options, m *mode, q string, stdout, stderr io.Writer) int {
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	r := &reporter{o: o, m: m, out: out, st: series.NewStore(c), stderr: stderr, loc: time.Local}
	switch {
	case m.query:
		if err := r.query(ctx, q); err != nil {
			r.fail(err)
		}
	case m.window:
		r.windowValues(ctx, q)
	case m.values:
		r.labelValues(ctx, commaSplit(q))
	case m.sources && !m.meta():
		r.sources(ctx, commaSplit(q))
	default:
		r.report(ctx, commaSplit(q))
	}
	if r.failed {
		return 1
	}
	return 0
}

type reporter struct {
	stderr io.Writer
	failed bool // an error was reported: the exit status is 1
	// a command could not be sent, the connection lost, and that was said
	lostSaid bool
	o        *options
	m        *mode
	out      *bufio.Writer
	st       *series.Store
	loc      *time.Location // the local zone (-Z's)

	// PCP's pmseries' report state: the series being reported, the
	// instances of it looked up, its labels, and whether the line is
	// open (a newline owed) and a comma goes before the next name
	series    string
	insts     []series.Instance
	labels    []series.Label
	instLabel map[string][]series.Label // in the instance labels step
	needEOL   bool
	needComma bool
}

// fail reports an error as PCP's pmseries does: a query's messages each
// as [Error], anything else (Redis's) once.
func (r *reporter) fail(err error) {
	var all series.ReplyErrors
	if errors.As(err, &all) {
		for _, e := range all {
			r.fail(e)
		}
		return
	}
	r.out.Flush()
	var qe *series.QueryError
	var se *series.SlotsError
	if errors.As(err, &se) {
		// a command not sent on a connection lost: libpcp_web's
		// note, said once (PCP's pmseries then crashes)
		if !r.lostSaid {
			ownfile.Notify(r.stderr, "pmseries", "Error", se.Msg)
		}
		r.lostSaid = true
	} else if errors.As(err, &qe) {
		for _, m := range append([]string{qe.Msg}, qe.More...) {
			fmt.Fprintf(r.stderr, "pmseries: [Error] %s\n", m)
		}
	} else {
		fmt.Fprintf(r.stderr, "pmseries: %v\n", err)
	}
	r.failed = true
}

// stampText is pmseries' time stamp: ctime's fields with nanoseconds
// before the year, in the local (TZ) time zone.
func stampText(ms float64, id string, loc *time.Location) string {
	sec, nsec := int64(0), int64(0)
	if i := strings.IndexByte(id, '-'); i > 0 {
		m, _ := strconv.ParseInt(id[:i], 10, 64)
		us, _ := strconv.ParseInt(id[i+1:], 10, 64)
		sec, nsec = m/1000, m%1000*1000000+us*1000
	} else {
		sec = int64(ms / 1000)
	}
	t := time.Unix(sec, nsec).In(loc)
	return fmt.Sprintf("%s.%09d %d", t.Format("Mon Jan _2 15:04:05"), nsec, t.Year())
}

func (r *reporter) query(ctx context.Context, expr string) error {
	query := r.st.Query
	if r.o.fast {
		query = r.st.QueryMetadata
	}
	res, err := query(ctx, expr)
	if err != nil {
		return err
	}
	var qe *series.QueryError
	if errors.As(res.Warning, &qe) {
		// PCP reports it while evaluating, before the answer
		for _, m := range append([]string{qe.Msg}, qe.More...) {
			fmt.Fprintf(r.stderr, "pmseries: [Error] %s\n", m)
		}
		r.failed = true
	}
	if !res.Windowed {
		for _, s := range res.Series {
			fmt.Fprintln(r.out, s)
		}
		return nil
	}
	last := ""
	for _, v := range res.Values {
		if v.Series != last {
			fmt.Fprintf(r.out, "\n%s\n", v.Series)
			last = v.Series
		}
		r.value(v)
	}
	return nil
}

// value prints one value as on_series_value does, the instance as its
// series identifier (the instances are not looked up).
func (r *reporter) value(v series.Value) {
	ts := stampText(v.Timestamp, v.Stamp, r.loc)
	if r.o.times {
		ts = v.StampText()
	}
	if v.Instance == "" && !v.Blank {
		fmt.Fprintf(r.out, "    [%s] %s\n", ts, v.Value)
	} else {
		fmt.Fprintf(r.out, "    [%s] %s %s\n", ts, v.Value, v.Instance)
	}
}

// windowValues is -w: the values of series identifiers in a time window
// (bracketed if it is not), as pmSeriesValues gives them.
func (r *reporter) windowValues(ctx context.Context, q string) {
	sids := commaSplit(q)
	win := r.o.window
	if !strings.HasPrefix(win, "[") {
		win = "[" + win + "]"
	}
	w, err := series.ParseWindow(win)
	if err != nil {
		r.fail(err)
		errno := "Invalid argument"
		var we *series.WindowError
		if errors.As(err, &we) {
			errno = we.Errno
		}
		fmt.Fprintf(r.stderr, "pmseries: invalid time specification '%s': %s\n", win, errno)
		return
	}
	vals, err := r.st.Values(ctx, sids, w)
	if err != nil {
		r.fail(err)
		return
	}
	for _, v := range vals {
		if r.next(v.Series) {
			fmt.Fprintf(r.out, "\n%s\n", v.Series)
		}
		r.value(v)
	}
}

// labelValues is -v: each label name's values on one line.
func (r *reporter) labelValues(ctx context.Context, names []string) {
	for _, name := range names {
		vals, err := r.st.LabelValues(ctx, name)
		if err != nil {
			r.fail(err)
			return
		}
		for _, v := range vals {
			if r.next(name) {
				fmt.Fprintf(r.out, "%s: %s", name, v)
			} else {
				fmt.Fprintf(r.out, ", %s", v)
			}
			r.needEOL = true
		}
	}
	r.done(nil)
}

func typePhrase(t string) string {
	switch strings.ToUpper(t) {
	case "32":
		return "32-bit int"
	case "64":
		return "64-bit int"
	case "U32":
		return "32-bit unsigned int"
	case "U64":
		return "64-bit unsigned int"
	case "FLOAT":
		return "float"
	case "DOUBLE":
		return "double"
	case "STRING":
		return "string"
	case "AGGREGATE":
		return "aggregate"
	case "AGGREGATE_STATIC":
		return "aggregate static"
	case "EVENT":
		return "event record array"
	case "HIGHRES_EVENT":
		return "highres event record array"
	case "NO_SUPPORT":
		return "Not Supported"
	}
	return "???"
}

func parseInDom(s string) (uint32, bool) {
	a, b, ok := strings.Cut(s, ".")
	d, err1 := strconv.ParseUint(a, 10, 32)
	n, err2 := strconv.ParseUint(b, 10, 32)
	if !ok || err1 != nil || err2 != nil {
		return 0xffffffff, false
	}
	return uint32(d&0x1ff)<<22 | uint32(n&0x3fffff), true
}

func parsePMID(s string) (uint32, bool) {
	p := strings.Split(s, ".")
	if len(p) != 3 {
		return 0xffffffff, false
	}
	var v [3]uint64
	for i := range p {
		x, err := strconv.ParseUint(p[i], 10, 32)
		if err != nil {
			return 0xffffffff, false
		}
		v[i] = x
	}
	return uint32(v[0]&0x1ff)<<22 | uint32(v[1]&0xfff)<<10 | uint32(v[2]&0x3ff), true
}

// desc prints a descriptor as on_series_desc does, after the series'
// heading.
func (r *reporter) desc(d series.Desc) {
	m := r.m
	if r.next(d.Series) {
		fmt.Fprintf(r.out, "\n%s", d.Series)
	} else {
		fmt.Fprint(r.out, "   ")
	}
	pmid, indom := d.PMID, d.InDom
	pv, _ := parsePMID(pmid)
	iv, _ := parseInDom(indom)
	if pmid == "none" {
		pmid = "PM_ID_NULL"
	}
	if indom == "none" {
		indom = "PM_INDOM_NULL"
	}
	if m.fullPMID || m.desc {
		fmt.Fprintf(r.out, " PMID: %s", pmid)
	}
	if m.fullPMID {
		fmt.Fprintf(r.out, " = %d = 0x%x", pv, pv)
	}
	if m.fullPMID || m.desc {
		fmt.Fprintln(r.out)
	}
	if m.desc {
		fmt.Fprintf(r.out, "    Data Type: %s", typePhrase(d.Type))
		if d.Type == "???" {
			fmt.Fprintf(r.out, " (%s)", d.Type)
		}
	}
	if m.fullInDom || m.desc {
		fmt.Fprintf(r.out, "  InDom: %s", indom)
	}
	if m.fullInDom {
		fmt.Fprintf(r.out, " = %d =", iv)
	}
	if m.fullInDom || m.desc {
		fmt.Fprintf(r.out, " 0x%x\n", iv)
	}
	if m.desc {
		u := d.Units
		if u == "" {
			u = "none"
		}
		fmt.Fprintf(r.out, "    Semantics: %s  Units: %s\n", d.Semantics, u)
	}
	if m.seriesID {
		fmt.Fprintf(r.out, "    Source: %s\n", d.Source)
	}
	r.needEOL = false
}
