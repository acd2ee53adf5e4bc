package pmlogger

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// logRequest is a pmlc "log" request in pmlogger's terms: mandatory or
// advisory, on or off, or mandatory maybe (which hands the metric back
// to advisory control, off).
type logRequest struct {
	on, mand, maybe bool
	interval        time.Duration
}

// off reports whether the request leaves nothing to log or to keep:
// advisory off and mandatory maybe are not recorded.
func (r logRequest) off() bool { return r.maybe || (!r.mand && !r.on) }

// allowed reports whether a task in state cur may be changed by r: an
// advisory request cannot change a mandatory one.
func (r logRequest) allowed(cur State) bool { return r.mand || r.maybe || !cur.Mandatory }

// setLogging changes what is logged as pmlc asked and returns the new
// state of each metric asked about (current instances only).
func (l *Logger) setLogging(ctx context.Context, m *pdu.LogControl) pcp.Result {
	r := logRequest{on: m.State == pdu.LogOn, interval: time.Duration(m.Delta) * time.Millisecond}
	if m.Control == pdu.LogMandatory {
		if m.State == pdu.LogMaybe {
			r.maybe = true
		} else {
			r.mand = true
		}
	}
	var nt *task
	if r.on && m.Delta != 0 {
		for _, t := range l.tasks {
			if !t.once && t.state.On == r.on && t.state.Mandatory == r.mand && t.interval == r.interval {
				nt = t
				break
			}
		}
	}
	fresh := nt == nil
	if fresh {
		nt = &task{state: State{On: r.on, Mandatory: r.mand}, descs: map[pcp.PMID]pcp.Desc{},
			names: map[pcp.PMID][]string{}, insts: map[pcp.PMID]map[int32]bool{}, last: map[pcp.PMID][]int32{}}
		if r.on {
			nt.interval = r.interval
			nt.once = m.Delta == 0
		}
	}
	for _, vs := range m.Sets {
		if vs.NumVal < 0 {
			continue
		}
		var insts []int32
		for _, v := range vs.Values {
			insts = append(insts, v.Inst)
		}
		l.changeMetric(ctx, vs.PMID, insts, r, nt)
	}
	if fresh && len(nt.pmids) > 0 {
		// A new task fetches at once, as pmlogger starts a task.
		nt.next = time.Now()
		nt.done = !r.on
		l.tasks = append(l.tasks, nt)
	}
	for _, t := range l.tasks {
		slices.SortFunc(t.pmids, func(a, b pcp.PMID) int { return cmp.Compare(b, a) })
		// The request may have moved metrics and instances between
		// tasks: each works its instance profile out again at its next
		// fetch, as PCP's pmlogger does at every fetch.
		t.profile = nil
		if len(t.pmids) == 0 {
			t.done = true
		}
	}
	return l.answer(ctx, m, false)
}

// changeMetric applies r to one metric, with the rules of PCP's pmlogger.
func (l *Logger) changeMetric(ctx context.Context, pmid pcp.PMID, insts []int32, r logRequest, nt *task) {
	var have []*task
	for _, t := range l.tasks {
		if hasPMID(t, pmid) {
			have = append(have, t)
		}
	}
	if len(have) == 0 {
		if !r.on && !(r.mand && !r.maybe) {
			return
		}
		desc, err := l.src.LookupDesc(ctx, pmid)
		if err != nil {
			return
		}
		addPMID(nt, pmid, desc, l.metricName(ctx, pmid))
		if desc.InDom != pcp.InDomNull && len(insts) > 0 {
			set := map[int32]bool{}
			for _, in := range insts {
				set[in] = true
			}
			nt.insts[pmid] = set
		}
		return
	}
	desc := have[0].descs[pmid]
	names := have[0].names[pmid]
	if desc.InDom == pcp.InDomNull {
		ct := have[0]
		if !r.allowed(ct.state) {
			return
		}
		dropPMID(ct, pmid)
		if !r.off() {
			addPMID(nt, pmid, desc, names)
		}
		return
	}
	var all *task
	hasMand := false
	for _, t := range have {
		if t.insts[pmid] == nil {
			all = t
		}
		if t.state.Mandatory {
			hasMand = true
		}
	}
	if len(insts) > 0 {
		if all != nil {
			return // "all" cannot become some
		}
		for _, in := range insts {
			var ct *task
			for _, t := range have {
				if t.insts[pmid][in] {
					ct = t
				}
			}
			if ct != nil {
				if ct == nt || !r.allowed(ct.state) {
					continue
				}
				delete(ct.insts[pmid], in)
				if len(ct.insts[pmid]) == 0 {
					dropPMID(ct, pmid)
				}
			}
			if r.off() {
				continue
			}
			if !hasPMID(nt, pmid) {
				addPMID(nt, pmid, desc, names)
			}
			if nt.insts[pmid] == nil {
				nt.insts[pmid] = map[int32]bool{}
			}
			nt.insts[pmid][in] = true
		}
		return
	}
	if hasMand && !r.mand && !r.maybe {
		return
	}
	if all != nil {
		if !all.state.Mandatory && r.maybe {
			return
		}
		dropPMID(all, pmid)
		if !r.off() {
			addPMID(nt, pmid, desc, names)
		}
		return
	}
	if r.maybe && !hasMand {
		return
	}
	for _, t := range have {
		dropPMID(t, pmid)
	}
	if !r.off() {
		addPMID(nt, pmid, desc, names)
	}
}

func (l *Logger) metricName(ctx context.Context, pmid pcp.PMID) []string {
	if n, err := l.src.NameID(ctx, pmid); err == nil {
		return []string{n}
	}
	return nil
}

func addPMID(t *task, pmid pcp.PMID, desc pcp.Desc, names []string) {
	if !hasPMID(t, pmid) {
		t.pmids = append(t.pmids, pmid)
	}
	t.descs[pmid] = desc
	t.names[pmid] = names
	delete(t.insts, pmid)
}

func dropPMID(t *task, pmid pcp.PMID) {
	t.pmids = slices.DeleteFunc(t.pmids, func(p pcp.PMID) bool { return p == pmid })
	delete(t.insts, pmid)
	delete(t.last, pmid)
}
