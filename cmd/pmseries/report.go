package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/gopcp/gopcp/series"
)

// errInvalid is EINVAL as pmseries prints it: the descriptors of no
// series asked for (-d, -s, -M or -I with no series given).
var errInvalid = errors.New("Invalid argument")

// next is PCP's series_next: when sid is not the series being reported
// it becomes it (the open line ended, the instances and labels looked up
// for the last one forgotten) and next says so.
func (r *reporter) next(sid string) bool {
	if r.series == sid {
		return false
	}
	r.needComma = false
	if r.needEOL {
		r.needEOL = false
		r.out.WriteByte('\n')
	}
	r.series = sid
	r.labels, r.insts = nil, nil
	return true
}

// done ends a step of the report as on_series_done does: the open line
// ended, and the first error said.
func (r *reporter) done(err error) {
	if r.needEOL {
		r.needEOL = false
		r.out.WriteByte('\n')
	}
	var se *series.SlotsError
	if err != nil && (!r.failed || !r.lostSaid && errors.As(err, &se)) {
		r.fail(err)
	}
}

// endStep is series_done_report: the next names start a new list.
func (r *reporter) endStep() {
	r.needComma = false
	r.done(nil)
}

// list names each on a line: a listing of every name of a kind, those
// -g matches.
func (r *reporter) list(ctx context.Context, mapName string, show bool) error {
	var names []string
	var err error
	if r.o.globSet {
		names, err = r.st.NamesMatching(ctx, mapName, r.o.glob)
	} else {
		names, err = r.st.AllNames(ctx, mapName)
	}
	if show {
		// a listing that failed part way lists the names before
		for _, n := range names {
			fmt.Fprintln(r.out, n)
		}
	}
	return err
}

// name adds a name to the open list line ("    Metric: a, b").
func (r *reporter) name(heading, n string) {
	if r.needComma {
		fmt.Fprintf(r.out, ", %s", n)
	} else {
		fmt.Fprintf(r.out, "    %s: %s", heading, n)
	}
	r.needComma, r.needEOL = true, true
}

// report prints the reports asked for of each series, in PCP's order
// (descriptor, source, metric names, labels, instances, instance
// labels), or with no series the listings of every name of those kinds.
func (r *reporter) report(ctx context.Context, sids []string) {
	if len(sids) == 0 {
		r.steps(ctx, "", false)
	}
	for _, sid := range sids {
		r.steps(ctx, sid, true)
		// series_report_reset: the next series starts afresh, even
		// the same one again
		r.series, r.labels, r.insts = "", nil, nil
		r.done(nil)
	}
}

func (r *reporter) steps(ctx context.Context, sid string, one bool) {
	m := r.m
	if one && r.next(sid) {
		fmt.Fprintf(r.out, "\n%s\n", sid)
	}
	r.done(nil)
	if m.desc || m.needDescs {
		if !one {
			r.done(errInvalid)
		} else {
			ds, err := r.st.Descs(ctx, []string{sid})
			for _, d := range ds {
				r.desc(d)
			}
			r.done(err)
		}
		r.endStep()
	}
	if m.sources {
		var err error
		if !one {
			err = r.list(ctx, "context.name", true)
		} else {
			var ns []series.Name
			ns, err = r.st.Sources(ctx, []string{sid})
			for _, n := range ns {
				r.name("Context", n.Name)
			}
		}
		r.done(err)
		r.endStep()
	}
	if m.metrics {
		var err error
		if !one {
			err = r.list(ctx, "metric.name", true)
		} else {
			var ns []series.Name
			ns, err = r.st.Metrics(ctx, []string{sid})
			for _, n := range ns {
				if r.next(n.Series) {
					fmt.Fprintf(r.out, "\n%s", n.Series)
				}
				r.name("Metric", n.Name)
			}
		}
		r.done(err)
		r.endStep()
	}
	if m.labels {
		r.done(r.labelStep(ctx, sid, one))
		if !m.onlyNames {
			series.SortLabels(r.labels)
			if txt := labelText(r.labels); len(txt) > 2 {
				fmt.Fprintf(r.out, "    labels %s\n", txt)
			}
		}
		r.done(nil)
		r.endStep()
	}
	if m.insts || m.needInsts {
		var err error
		if !one {
			err = r.list(ctx, "inst.name", m.insts)
		} else {
			var insts []series.Instance
			insts, err = r.st.Instances(ctx, []string{sid})
			for _, in := range insts {
				if r.next(sid) && m.insts {
					fmt.Fprintf(r.out, "\n%s\n", sid)
				}
				if r.inst(in.Instance) == nil {
					r.insts = append(r.insts, in)
				}
			}
		}
		r.done(err)
		// Instances come ordered by number, then name, as
		// series_instance_compare sorts them.
		if m.insts {
			for _, in := range r.insts {
				fmt.Fprintf(r.out, "    inst [%d or \"%s\"] series %s\n", in.ID, in.Name, in.Instance)
			}
		}
		r.done(nil)
		r.endStep()
	}
	if m.labels && one {
		r.done(r.instLabelStep(ctx))
		if !m.onlyNames {
			for _, in := range r.insts {
				ls := r.instLabel[in.Instance]
				series.SortLabels(ls)
				fmt.Fprintf(r.out, "    inst [%d or \"%s\"] labels %s\n", in.ID, in.Name, labelText(ls))
			}
		}
		r.instLabel = nil
		r.done(nil)
		r.endStep()
	}
	r.needEOL = false
	r.done(nil)
}

func (r *reporter) inst(series string) *series.Instance {
	for i := range r.insts {
		if r.insts[i].Instance == series {
			return &r.insts[i]
		}
	}
	return nil
}

// labelStep looks up a series' labels: their names listed with -n, else
// kept for the sorted label set printed after.
func (r *reporter) labelStep(ctx context.Context, sid string, one bool) error {
	if !one {
		return r.list(ctx, "label.name", true)
	}
	// the labels read are reported with the messages, as PCP's are
	sets, err := r.st.LabelSets(ctx, []string{sid})
	if sets == nil {
		return err
	}
	ls := sets[0]
	for _, l := range ls {
		r.labelName(sid, l.Name)
	}
	for _, l := range ls {
		if l.Value == "" {
			continue // its value not read
		}
		// on_series_labelmap: the series is already the one reported
		if r.next(sid) && !r.m.seriesID {
			fmt.Fprintf(r.out, "\n%s\n", sid)
		}
		r.labels = append(r.labels, l)
	}
	return err
}

// labelName is on_series_label: with -n each series' label names on a
// line of their own, headed by the series (an instance's series too,
// whose lookup then forgets the instances, as PCP's does).
func (r *reporter) labelName(sid, name string) {
	if !r.m.onlyNames {
		return
	}
	if r.next(sid) {
		fmt.Fprintf(r.out, "\n%s", sid)
	}
	r.name("Labels", name)
}

// instLabelStep looks up the labels of the instances found.
func (r *reporter) instLabelStep(ctx context.Context) error {
	if len(r.insts) == 0 {
		return nil
	}
	insts := append([]series.Instance(nil), r.insts...)
	r.instLabel = map[string][]series.Label{}
	sids := make([]string, len(insts))
	for i, in := range insts {
		sids[i] = in.Instance
	}
	all, err := r.st.LabelSets(ctx, sids)
	if all == nil {
		return err
	}
	for i, in := range insts {
		for _, l := range all[i] {
			r.labelName(in.Instance, l.Name)
		}
	}
	for i, in := range insts {
		if r.inst(in.Instance) == nil {
			continue // forgotten by a label name's heading
		}
		for _, l := range all[i] {
			if l.Value != "" {
				r.instLabel[in.Instance] = append(r.instLabel[in.Instance], l)
			}
		}
	}
	return err
}

// sources is -S alone: the context names of sources, one list, or every
// context name (those -g matches) when none is given.
func (r *reporter) sources(ctx context.Context, srcs []string) {
	var err error
	if len(srcs) == 0 {
		err = r.list(ctx, "context.name", true)
	} else {
		var ns []series.Name
		if ns, err = r.st.Sources(ctx, srcs); err == nil {
			for _, n := range ns {
				r.name("Context", n.Name)
			}
		}
	}
	r.done(err)
}

// labelText is a label set as pmseries prints it.
func labelText(ls []series.Label) string {
	b := []byte{'{'}
	for i, l := range ls {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "\"%s\":%s", l.Name, l.Value)
	}
	return string(append(b, '}'))
}
