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

	"github.com/redis/go-redis/v9"

	"github.com/gopcp/gopcp/series"
)

// isSID is a 40-hex-digit series identifier.
func isSID(s string) bool {
	_, ok := series.ParseID(s)
	return ok
}

func query(ctx context.Context, c redis.UniversalClient, o *options, args []string, stdout, stderr io.Writer) int {
	meta := o.all || o.desc || o.instances || o.labels || o.metrics || o.series || o.fullInDom || o.fullPMID
	if o.query && (meta || o.sources || o.values) {
		fmt.Fprintln(stderr, "pmseries: error - cannot use query and metadata options together")
		return 1
	}
	if !meta && !o.query && !o.sources && !o.values && len(args) > 0 {
		all := true
		for _, a := range args {
			if !isSID(a) {
				all = false
			}
		}
		if all {
			o.all, o.series, meta = true, true, true
		}
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	st := series.NewStore(c)
	if len(args) == 0 && !o.all && (o.sources || o.metrics || o.instances || o.labels) {
		// no series given: every name of the kind asked for
		kind := "context.name"
		switch {
		case o.metrics:
			kind = "metric.name"
		case o.instances:
			kind = "inst.name"
		case o.labels:
			kind = "label.name"
		}
		names, err := st.AllNames(ctx, kind)
		if err != nil {
			fmt.Fprintf(stderr, "pmseries: %v\n", err)
			return 1
		}
		for _, n := range names {
			fmt.Fprintln(out, n)
		}
		return 0
	}
	if o.values {
		if len(args) == 0 {
			fmt.Fprintln(stderr, "pmseries: error - no label name(s) provided")
			return 1
		}
		for _, name := range splitSIDs(args) {
			vals, err := st.LabelValues(ctx, name)
			if err != nil {
				fmt.Fprintf(stderr, "pmseries: %v\n", err)
				return 1
			}
			if len(vals) > 0 {
				fmt.Fprintf(out, "%s: %s\n", name, strings.Join(vals, ", "))
			}
		}
		return 0
	}
	if len(args) == 0 {
		fmt.Fprintln(stderr, "pmseries: error - no query string provided")
		return 1
	}
	r := &reporter{o: o, out: out, st: st, stderr: stderr}
	var err error
	switch {
	case o.sources:
		err = r.sources(ctx, splitSIDs(args))
	case meta:
		if o.all {
			o.desc, o.instances, o.labels, o.metrics, o.series = true, true, true, true, true
		}
		err = r.report(ctx, splitSIDs(args))
	default:
		err = r.query(ctx, strings.Join(args, " "))
	}
	out.Flush()
	var qe *series.QueryError
	if errors.As(err, &qe) {
		for _, m := range append([]string{qe.Msg}, qe.More...) {
			fmt.Fprintf(stderr, "pmseries: [Error] %s\n", m)
		}
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "pmseries: %v\n", err)
		return 1
	}
	if r.failed {
		return 1
	}
	return 0
}

func splitSIDs(args []string) []string {
	var out []string
	for _, a := range args {
		for _, s := range strings.Split(a, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

type reporter struct {
	stderr io.Writer
	failed bool // an error was reported: the exit status is 1
	o      *options
	out    *bufio.Writer
	st     *series.Store
}

// stampText is pmseries' time stamp: ctime's fields with nanoseconds
// before the year, in the local (TZ) time zone.
func stampText(ms float64, id string) string {
	sec, nsec := int64(0), int64(0)
	if i := strings.IndexByte(id, '-'); i > 0 {
		m, _ := strconv.ParseInt(id[:i], 10, 64)
		us, _ := strconv.ParseInt(id[i+1:], 10, 64)
		sec, nsec = m/1000, m%1000*1000000+us*1000
	} else {
		sec = int64(ms / 1000)
	}
	t := time.Unix(sec, nsec)
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
		ts := stampText(v.Timestamp, v.Stamp)
		if r.o.times {
			ts = v.StampText()
		}
		if v.Instance == "" && !v.Blank {
			fmt.Fprintf(r.out, "    [%s] %s\n", ts, v.Value)
		} else {
			fmt.Fprintf(r.out, "    [%s] %s %s\n", ts, v.Value, v.Instance)
		}
	}
	return nil
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

// report prints the metadata of each series as pmseries does, in its
// order: descriptor, source, metric names, labels, instances, instance
// labels.
func (r *reporter) report(ctx context.Context, sids []string) error {
	o := r.o
	for _, sid := range sids {
		fmt.Fprintf(r.out, "\n%s\n", sid)
		if o.desc || o.series || o.fullPMID || o.fullInDom {
			ds, err := r.st.Descs(ctx, []string{sid})
			if err != nil {
				return err
			}
			for _, d := range ds {
				r.desc(d)
			}
		}
		if o.metrics {
			ns, err := r.st.Metrics(ctx, []string{sid})
			if err != nil {
				return err
			}
			for i, n := range ns {
				if i == 0 {
					fmt.Fprintf(r.out, "    Metric: %s", n.Name)
				} else {
					fmt.Fprintf(r.out, ", %s", n.Name)
				}
			}
			if len(ns) > 0 {
				fmt.Fprintln(r.out)
			}
		}
		if o.labels {
			ls, err := r.st.Labels(ctx, sid)
			if err != nil {
				return err
			}
			if txt := labelText(ls); len(txt) > 2 {
				fmt.Fprintf(r.out, "    labels %s\n", txt)
			}
		}
		var insts []series.Instance
		if o.instances || o.labels {
			var err error
			if insts, err = r.st.Instances(ctx, []string{sid}); err != nil {
				return err
			}
		}
		if o.instances {
			for _, in := range insts {
				fmt.Fprintf(r.out, "    inst [%d or \"%s\"] series %s\n", in.ID, in.Name, in.Instance)
			}
		}
		if o.labels {
			for _, in := range insts {
				ls, err := r.st.Labels(ctx, in.Instance)
				if err != nil {
					return err
				}
				fmt.Fprintf(r.out, "    inst [%d or \"%s\"] labels %s\n", in.ID, in.Name, labelText(ls))
			}
		}
	}
	return nil
}

func labelText(ls []series.Label) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, l := range ls {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:%s", l.Name, l.Value)
	}
	b.WriteByte('}')
	return b.String()
}

func (r *reporter) desc(d series.Desc) {
	o := r.o
	fmt.Fprint(r.out, "   ")
	pmid, indom := d.PMID, d.InDom
	pv, _ := parsePMID(pmid)
	iv, _ := parseInDom(indom)
	if pmid == "none" {
		pmid = "PM_ID_NULL"
	}
	if indom == "none" {
		indom = "PM_INDOM_NULL"
	}
	if o.fullPMID || o.desc {
		fmt.Fprintf(r.out, " PMID: %s", pmid)
	}
	if o.fullPMID {
		fmt.Fprintf(r.out, " = %d = 0x%x", pv, pv)
	}
	if o.fullPMID || o.desc {
		fmt.Fprintln(r.out)
	}
	if o.desc {
		fmt.Fprintf(r.out, "    Data Type: %s", typePhrase(d.Type))
		if d.Type == "???" {
			fmt.Fprintf(r.out, " (%s)", d.Type)
		}
	}
	if o.fullInDom || o.desc {
		fmt.Fprintf(r.out, "  InDom: %s", indom)
	}
	if o.fullInDom {
		fmt.Fprintf(r.out, " = %d =", iv)
	}
	if o.fullInDom || o.desc {
		fmt.Fprintf(r.out, " 0x%x\n", iv)
	}
	if o.desc {
		u := d.Units
		if u == "" {
			u = "none"
		}
		fmt.Fprintf(r.out, "    Semantics: %s  Units: %s\n", d.Semantics, u)
	}
	if o.series {
		fmt.Fprintf(r.out, "    Source: %s\n", d.Source)
	}
}

func (r *reporter) sources(ctx context.Context, srcs []string) error {
	ns, err := r.st.Sources(ctx, srcs)
	if err != nil {
		return err
	}
	last := ""
	for _, n := range ns {
		if n.Series != last {
			if last != "" {
				fmt.Fprintln(r.out)
			}
			fmt.Fprintf(r.out, "    Context: %s", n.Name)
			last = n.Series
		} else {
			fmt.Fprintf(r.out, ", %s", n.Name)
		}
	}
	if last != "" {
		fmt.Fprintln(r.out)
	}
	return nil
}
