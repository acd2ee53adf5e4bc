package pmlogger

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Bits of a LOG_CONTROL answer's values (PMLC_* in PCP): the request's
// state, whether the instance has been logged and whether it was in the
// last fetch, then the interval in milliseconds from bit 4 up.
const (
	lcOn     = 1 << 0
	lcMand   = 1 << 1
	lcAvail  = 1 << 2
	lcInLog  = 1 << 3
	lcDelta  = 4
	lcDMax   = 0x0fffffff
	lcStates = lcOn | lcMand
)

// history is what has been logged of one metric: its instances in the
// order first seen, and which were in the latest fetch. pmlc's query
// reports both.
type history struct {
	indom pcp.InDom
	insts []int32
	avail map[int32]bool
}

// noteFetch updates the logging history after t's fetch: instances t
// asked for lose their "in the last fetch" mark, then those in res get
// it (and join the history if new).
func (l *Logger) noteFetch(t *task, res *pcp.Result) {
	if l.hist == nil {
		l.hist = map[pcp.PMID]*history{}
	}
	for _, pmid := range t.pmids {
		h := l.hist[pmid]
		if h == nil {
			continue
		}
		if want := t.insts[pmid]; want != nil && h.indom != pcp.InDomNull {
			for in := range want {
				delete(h.avail, in)
			}
		} else {
			clear(h.avail)
		}
	}
	for i := range res.Sets {
		vs := &res.Sets[i]
		h := l.hist[vs.PMID]
		if h == nil {
			desc, ok := t.descs[vs.PMID]
			if !ok || vs.NumVal <= 0 {
				continue
			}
			h = &history{indom: desc.InDom, avail: map[int32]bool{}}
			l.hist[vs.PMID] = h
		}
		for _, v := range vs.Values[:max(vs.NumVal, 0)] {
			if !h.avail[v.Inst] {
				found := false
				for _, in := range h.insts {
					if in == v.Inst {
						found = true
						break
					}
				}
				if !found {
					h.insts = append(h.insts, v.Inst)
				}
			}
			h.avail[v.Inst] = true
		}
	}
}

// control answers a LOG_CONTROL PDU. An enquiry (pmlc's query) is
// answered from what is being logged; a change (pmlc's log
// mandatory|advisory) is made between samples, written to the log as
// PCP's pmlogger writes it (who asked, what, and each metric and
// instance with "[request failed]" where the new state is not the one
// asked for) and answered the same way with the new state. A change the
// client's [access] denies is refused with PM_ERR_PERMISSION.
func (l *Logger) control(ctx context.Context, w *pdu.Writer, m *pdu.LogControl, host string, deny int) error {
	var res pcp.Result
	var refused error
	switch m.Control {
	case pdu.LogEnquire:
		if err := l.do(ctx, func() { res = l.answer(ctx, m, true) }); err != nil {
			return err
		}
	case pdu.LogMandatory, pdu.LogAdvisory:
		op := OpAdvisory
		if m.Control == pdu.LogMandatory {
			op = OpMandatory
		}
		if err := l.do(ctx, func() {
			l.logRequestLine(m, host)
			if deny&op != 0 {
				refused = pcp.ErrPermission
				fmt.Fprintf(l.log, "Error: %s\n", refused)
				return
			}
			res = l.setLogging(ctx, m)
			l.logRequestResult(ctx, m, &res)
		}); err != nil {
			return err
		}
	default:
		if err := l.do(ctx, func() { fmt.Fprintf(l.log, "Bad control PDU type %d\nError: %s\n", m.Control, pcp.ErrIPC) }); err != nil {
			return err
		}
		refused = pcp.ErrIPC
	}
	if refused != nil {
		return w.WriteMessage(ctx, &pdu.Error{Code: pcp.CodeOf(refused, pcp.ErrIPC).Code()}, 0)
	}
	return w.WriteMessage(ctx, &pdu.Result{Result: res}, 0)
}

// logRequestLine writes the heading of a log request: the time, the
// client and what it asked.
func (l *Logger) logRequestLine(m *pdu.LogControl, host string) {
	if host == "" {
		host = "pmlogger"
	}
	kind := "advisory"
	if m.Control == pdu.LogMandatory {
		kind = "mandatory"
	}
	what := " maybe"
	switch {
	case m.State == pdu.LogOn && m.Delta == 0:
		what = " on once"
	case m.State == pdu.LogOn:
		what = fmt.Sprintf(" on %.1f sec", float32(m.Delta)/1000)
	case m.State == pdu.LogOff:
		what = " off"
	}
	fmt.Fprintf(l.log, "\n%s\npmlc request from %s: %s%s\n", time.Now().Format("Mon Jan _2 15:04:05 2006"), host, kind, what)
}

// logRequestResult writes each metric of a log request with its
// instances and whether the request took effect for each.
func (l *Logger) logRequestResult(ctx context.Context, m *pdu.LogControl, res *pcp.Result) {
	var want, mask int32
	if m.State == pdu.LogMaybe {
		mask = lcMand
	} else {
		mask = lcMand | lcOn
		if m.Control == pdu.LogMandatory {
			want |= lcMand
		}
		if m.State == pdu.LogOn {
			want |= lcOn
		}
	}
	wantDelta := int32(0)
	if want&lcOn != 0 {
		wantDelta = int32(m.Delta)
	}
	for i := range res.Sets {
		vs := &res.Sets[i]
		if names, err := l.src.NameAll(ctx, vs.PMID); err == nil && len(names) > 0 {
			fmt.Fprintf(l.log, "  metric: %s", strings.Join(names, " or "))
		} else {
			fmt.Fprintf(l.log, "  metric: %s", vs.PMID)
		}
		for j, v := range vs.Values[:max(vs.NumVal, 0)] {
			t := l.covering(vs.PMID, v.Inst)
			if t != nil && t.descs[vs.PMID].InDom != pcp.InDomNull {
				if j == 0 {
					fmt.Fprintln(l.log)
				}
				if name, err := l.src.NameInDom(ctx, t.descs[vs.PMID].InDom, v.Inst); err == nil {
					fmt.Fprintf(l.log, "    instance: %s", name)
				} else {
					fmt.Fprintf(l.log, "    instance: #%d", v.Inst)
				}
			} else if vs.NumVal > 1 || v.Inst != pcp.InstNull {
				if j == 0 {
					fmt.Fprintln(l.log)
				}
				fmt.Fprintf(l.log, "    instance: #%d", v.Inst)
			}
			if v.LVal&mask != want || (v.LVal>>lcDelta)&lcDMax != wantDelta {
				fmt.Fprint(l.log, " [request failed]")
			}
			fmt.Fprintln(l.log)
		}
	}
}

// enquire builds the answer to a query: for each metric, the instances
// asked for, or else the current instance domain followed by any logged
// instances no longer in it; each value holds the logging state and
// interval of the request covering the instance and its history bits.
func (l *Logger) answer(ctx context.Context, m *pdu.LogControl, useHist bool) pcp.Result {
	res := pcp.Result{Sets: make([]pcp.ValueSet, len(m.Sets))}
	for i, req := range m.Sets {
		vs := pcp.ValueSet{PMID: req.PMID, ValFmt: pcp.ValInSitu}
		var insts []int32
		if req.NumVal > 0 {
			for _, v := range req.Values {
				insts = append(insts, v.Inst)
			}
		} else {
			var err error
			insts, err = l.knownInsts(ctx, req.PMID, useHist)
			if err != nil {
				var pe pcp.Error
				if !errors.As(err, &pe) {
					pe = pcp.ErrIPC
				}
				vs.NumVal = pe.Code()
				res.Sets[i] = vs
				continue
			}
		}
		for _, in := range insts {
			vs.Values = append(vs.Values, pcp.Value{Inst: in, LVal: l.logState(req.PMID, in)})
		}
		vs.NumVal = int32(len(vs.Values))
		res.Sets[i] = vs
	}
	return res
}

// knownInsts is pmid's current instances (pmcd's) and then those in the
// history that pmcd no longer has.
func (l *Logger) knownInsts(ctx context.Context, pmid pcp.PMID, useHist bool) ([]int32, error) {
	desc, err := l.src.LookupDesc(ctx, pmid)
	if err != nil {
		return nil, err
	}
	if desc.InDom == pcp.InDomNull {
		return []int32{pcp.InstNull}, nil
	}
	cur, err := l.src.GetInDom(ctx, desc.InDom)
	if err != nil {
		return nil, err
	}
	var insts []int32
	in := map[int32]bool{}
	for _, c := range cur {
		insts = append(insts, c.Inst)
		in[c.Inst] = true
	}
	if h := l.hist[pmid]; h != nil && useHist {
		for _, i := range h.insts {
			if !in[i] {
				insts = append(insts, i)
			}
		}
	}
	return insts, nil
}

// logState is the value pmlc's query shows for one instance: the state
// and interval of the task logging it (a request naming the instance
// over one for all instances), and whether it has been logged and was
// in the last fetch.
func (l *Logger) logState(pmid pcp.PMID, inst int32) int32 {
	found := l.covering(pmid, inst)
	var v int32
	if found != nil {
		if found.state.On {
			v |= lcOn
		}
		if found.state.Mandatory {
			v |= lcMand
		}
		if !found.once {
			v |= int32(found.interval.Milliseconds()&lcDMax) << lcDelta
		}
	}
	if h := l.hist[pmid]; h != nil {
		logged := len(h.insts) > 0
		if h.indom != pcp.InDomNull {
			logged = false
			for _, i := range h.insts {
				if i == inst {
					logged = true
					break
				}
			}
		}
		if logged {
			v |= lcInLog
			if h.avail[inst] || (h.indom == pcp.InDomNull && len(h.avail) > 0) {
				v |= lcAvail
			}
		}
	}
	return v
}

// covering is the task logging pmid's instance inst: one naming the
// instance before one for all instances; nil when none does.
func (l *Logger) covering(pmid pcp.PMID, inst int32) *task {
	var found, all *task
	for _, t := range l.tasks {
		if !hasPMID(t, pmid) {
			continue
		}
		if want := t.insts[pmid]; want == nil {
			if all == nil {
				all = t
			}
		} else if want[inst] {
			found = t
			break
		}
	}
	if found == nil {
		found = all
	}
	return found
}

func hasPMID(t *task, pmid pcp.PMID) bool {
	for _, p := range t.pmids {
		if p == pmid {
			return true
		}
	}
	return false
}
