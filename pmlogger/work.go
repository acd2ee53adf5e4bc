package pmlogger

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// Label levels, PM_LABEL_*, in the order pmlogger records them.
const (
	labelContext   = 1 << 0
	labelDomain    = 1 << 1
	labelInDom     = 1 << 2
	labelCluster   = 1 << 3
	labelItem      = 1 << 4
	labelInstances = 1 << 5
)

// work fetches one task's metrics and records them; stop reports that a
// limit was reached.
func (l *Logger) work(ctx context.Context, t *task) (stop bool, err error) {
	res := &l.res
	if err := l.setProfile(t); err != nil {
		return false, err
	}
	changed, err := l.src.Fetch(ctx, t.pmids, res)
	if err != nil {
		if errors.Is(err, pcp.ErrIPC) || errors.Is(err, context.DeadlineExceeded) {
			fmt.Fprintf(l.log, "pmlogger: Error: %v\n", err)
			return false, l.reconnect(ctx)
		}
		return false, err
	}
	filterInsts(res, t)
	l.noteFetch(t, res)

	w := l.w
	maxOff := int64(1<<63 - 1)
	if w.Version() == archive.Version2 {
		maxOff = 0x7fffffff
	}
	// Sizing the record costs an encoding, so only near the limit.
	if data, _ := w.Offsets(); data > maxOff-1<<26 && data+int64(w.ResultSize(res)) > maxOff {
		l.newVolume("max data volume size")
	}
	lastLog, _ := w.Offsets()
	if changed&pmapi.LabelChange != 0 && w.Started() {
		l.putLabels(ctx, labelContext, uint32(pcp.InDomNull), res.Timestamp)
	}
	if !w.Started() {
		if err := w.Start(res.Timestamp); err != nil {
			return false, err
		}
		lastLog, _ = w.Offsets()
	}
	_, oldMeta := w.Offsets()
	needIndex := false
	for i := range res.Sets {
		vs := &res.Sets[i]
		desc, ok := t.descs[vs.PMID]
		if !ok {
			continue
		}
		if !l.descs[vs.PMID] {
			names, _ := l.src.NameAll(ctx, vs.PMID)
			for _, n := range t.names[vs.PMID] {
				if !slices.Contains(names, n) {
					names = append(names, n)
				}
			}
			logged := desc
			logged.PMID = loggedPMID(desc.PMID)
			if err := w.PutDesc(logged, names); err != nil {
				return false, err
			}
			l.descs[vs.PMID] = true
			l.manageLabels(ctx, desc, res.Timestamp, false)
			l.manageText(ctx, desc)
		}
		if desc.Type == pcp.TypeEvent {
			if err := l.eventParams(ctx, vs); err != nil {
				return false, err
			}
		}
		if desc.InDom == pcp.InDomNull || vs.NumVal <= 0 {
			continue
		}
		changedInDom, err := l.checkInDom(ctx, t, vs, desc, res.Timestamp)
		if err != nil {
			return false, err
		}
		if changedInDom {
			needIndex = true
		}
	}
	if lastLog == labelSize(w) {
		needIndex = true // first result in this volume
	}
	if err := l.putResult(res); err != nil {
		return false, err
	}
	data, _ := w.Offsets()
	if data > l.flushSize {
		needIndex = true
	}
	if needIndex {
		if err := w.PutIndex(res.Timestamp, lastLog, oldMeta); err != nil {
			return false, err
		}
		l.flushSize = data + 100000
	}
	l.lastStamp, l.lastLogOff = res.Timestamp, lastLog
	if l.opt.Report != nil && !t.reported {
		t.reported = true
		l.report(t, data-lastLog)
	}
	for i := range res.Sets {
		vs := &res.Sets[i]
		insts := t.last[vs.PMID][:0]
		for _, v := range vs.Values[:max(vs.NumVal, 0)] {
			insts = append(insts, v.Inst)
		}
		t.last[vs.PMID] = insts
	}

	l.samples++
	if l.opt.Samples > 0 && l.samples >= l.opt.Samples {
		l.stopMsg = "Sample limit reached"
		return true, nil
	}
	if l.opt.Bytes > 0 && l.volBytes+data >= l.opt.Bytes {
		l.stopMsg = "Byte limit reached"
		return true, nil
	}
	l.volSamples++
	if l.opt.VolSamples > 0 && l.volSamples >= l.opt.VolSamples {
		l.newVolume("sample counter")
	}
	if data, _ := w.Offsets(); l.opt.VolBytes > 0 && data >= l.opt.VolBytes {
		l.newVolume("sample byte size")
	}
	return false, nil
}

func labelSize(w *archive.Writer) int64 {
	if w.Version() == archive.Version3 {
		return 4 + 4 + 12 + 4 + 4 + 4 + 256*3 + 8
	}
	return 4 + 4 + 8 + 4 + 64 + 40 + 8
}

// reconnect tries once to reach pmcd again; logging resumes with a
// <mark> record, as the data have a gap.
func (l *Logger) reconnect(ctx context.Context) error {
	// A host context, or derived metrics laid over one.
	c, ok := l.src.(interface{ Reconnect(context.Context) error })
	if !ok {
		return nil
	}
	if err := c.Reconnect(ctx); err != nil {
		return nil // try again at the next sample
	}
	fmt.Fprintf(l.log, "pmlogger: re-established connection to PMCD\n")
	if l.lastStamp != (pcp.Timestamp{}) {
		return l.w.PutMark(addMsec(l.lastStamp))
	}
	return nil
}

func addMsec(t pcp.Timestamp) pcp.Timestamp {
	t.Nsec += 1000000
	if t.Nsec >= 1000000000 {
		t.Nsec -= 1000000000
		t.Sec++
	}
	return t
}

// filterInsts drops the values of instances the configuration did not
// ask for (pmlogger asks pmcd for them with a profile instead).
func filterInsts(r *pcp.Result, t *task) {
	if len(t.insts) == 0 {
		return
	}
	for i := range r.Sets {
		vs := &r.Sets[i]
		want := t.insts[vs.PMID]
		if want == nil || vs.NumVal <= 0 {
			continue
		}
		vs.Values = slices.DeleteFunc(vs.Values[:vs.NumVal], func(v pcp.Value) bool { return !want[v.Inst] })
		vs.NumVal = int32(len(vs.Values))
	}
}

// checkInDom records the instance domain of vs's metric when it is new
// or its instances may have changed, as pmlogger does: a value whose
// instance the recorded domain lacks, or fewer or other instances than
// the task's last fetch, makes it ask pmcd for the domain and write what
// changed.
func (l *Logger) checkInDom(ctx context.Context, t *task, vs *pcp.ValueSet, desc pcp.Desc, stamp pcp.Timestamp) (bool, error) {
	old := l.indoms[desc.InDom]
	need := false
	switch {
	case old == nil:
		need = true
	case stamp.Sub(old.Stamp) <= 0:
		return false, nil
	default:
		for _, v := range vs.Values[:vs.NumVal] {
			if _, ok := old.Find(v.Inst); !ok {
				need = true
				break
			}
		}
		if !need {
			if last, ok := t.last[vs.PMID]; ok {
				need = !sameInsts(last, vs.Values[:vs.NumVal])
			}
		}
	}
	if !need {
		return false, nil
	}
	insts, err := l.src.GetInDom(ctx, desc.InDom)
	if err != nil {
		return false, fmt.Errorf("pmGetInDom(%s): %w", desc.InDom, err)
	}
	now := &archive.InDom{Stamp: stamp, Insts: make([]int32, len(insts)), Names: make([]string, len(insts))}
	for i, in := range insts {
		now.Insts[i], now.Names[i] = in.Inst, in.Name
	}
	archive.SortInDom(now)
	kind, delta := archive.CompareInDom(l.w.Version(), old, now)
	switch kind {
	case archive.InDomSame:
		return false, nil
	case archive.InDomFull:
		err = l.w.PutInDom(desc.InDom, now, false)
	case archive.InDomDelta:
		err = l.w.PutInDom(desc.InDom, delta, true)
	}
	if err != nil {
		return false, err
	}
	l.indoms[desc.InDom] = now
	l.manageLabels(ctx, desc, stamp, true)
	return true, nil
}

// manageLabels records the label sets of each level a metric has that
// are not yet in the archive (only the instances' with instancesOnly).
func (l *Logger) manageLabels(ctx context.Context, desc pcp.Desc, stamp pcp.Timestamp, instancesOnly bool) {
	levels := []uint32{labelContext, labelDomain, labelInDom, labelCluster, labelItem, labelInstances}
	if instancesOnly {
		levels = levels[5:]
	}
	for _, typ := range levels {
		var ident uint32
		switch typ {
		case labelContext:
			ident = uint32(pcp.InDomNull)
		case labelDomain:
			ident = desc.PMID.Domain()
		case labelInDom, labelInstances:
			if desc.InDom == pcp.InDomNull {
				continue
			}
			ident = uint32(desc.InDom)
		case labelCluster:
			ident = uint32(pcp.NewPMID(desc.PMID.Domain(), desc.PMID.Cluster(), 0))
		case labelItem:
			ident = uint32(desc.PMID)
		}
		if l.labels[[2]uint32{typ, ident}] {
			continue
		}
		l.putLabels(ctx, typ, ident, stamp)
	}
}

func (l *Logger) putLabels(ctx context.Context, typ, ident uint32, stamp pcp.Timestamp) {
	var sets []pcp.LabelSet
	var err error
	switch typ {
	case labelContext:
		sets, err = l.src.ContextLabels(ctx)
	case labelDomain:
		sets, err = l.src.DomainLabels(ctx, ident)
	case labelInDom:
		sets, err = l.src.InDomLabels(ctx, pcp.InDom(ident))
	case labelCluster:
		sets, err = l.src.ClusterLabels(ctx, pcp.PMID(ident))
	case labelItem:
		sets, err = l.src.ItemLabels(ctx, pcp.PMID(ident))
	case labelInstances:
		sets, err = l.src.InstancesLabels(ctx, pcp.InDom(ident))
	}
	if err != nil || len(sets) == 0 {
		return
	}
	logIdent := ident
	if typ == labelItem {
		logIdent = uint32(loggedPMID(pcp.PMID(ident)))
	}
	if l.w.PutLabels(typ, logIdent, stamp, sets) == nil {
		l.labels[[2]uint32{typ, ident}] = true
	}
}

// manageText records a metric's one-line and full help text, and its
// instance domain's the first time that domain is met.
func (l *Logger) manageText(ctx context.Context, desc pcp.Desc) {
	for _, level := range []pmapi.TextLevel{pmapi.TextOneLine, pmapi.TextHelp} {
		for _, forInDom := range []bool{false, true} {
			kind := uint32(level)
			var text string
			var err error
			if forInDom {
				if desc.InDom == pcp.InDomNull {
					continue
				}
				kind |= archive.TextInDom
				key := [2]uint32{kind, uint32(desc.InDom)}
				if l.texts[key] {
					continue
				}
				text, err = l.src.LookupInDomText(ctx, desc.InDom, level|pmapi.TextDirect)
				if err == nil && l.w.PutText(kind, uint32(desc.InDom), text) == nil {
					l.texts[key] = true
				}
				continue
			}
			kind |= archive.TextPMID
			text, err = l.src.LookupText(ctx, desc.PMID, level|pmapi.TextDirect)
			if err == nil {
				l.w.PutText(kind, uint32(loggedPMID(desc.PMID)), text)
			}
		}
	}
}

// sameInsts reports whether vals has the instances of last, in any
// order; the usual case, the same order, costs one pass.
func sameInsts(last []int32, vals []pcp.Value) bool {
	if len(last) != len(vals) {
		return false
	}
	inOrder := true
	for i, v := range vals {
		if last[i] != v.Inst {
			inOrder = false
			break
		}
	}
	if inOrder {
		return true
	}
	set := make(map[int32]bool, len(last))
	for _, in := range last {
		set[in] = true
	}
	for _, v := range vals {
		if !set[v.Inst] {
			return false
		}
	}
	return true
}

// report describes a task's record once, as pmlogger -r does.
func (l *Logger) report(t *task, bytes int64) {
	w := l.opt.Report
	if len(t.pmids) > 1 {
		fmt.Fprintf(w, "\nGroup [%d metrics] {\n", len(t.pmids))
		for _, pmid := range t.pmids {
			fmt.Fprintf(w, "\t%s\n", t.names[pmid][0])
		}
		fmt.Fprintf(w, "}")
	} else {
		fmt.Fprintf(w, "\nMetric %s", t.names[t.pmids[0]][0])
	}
	fmt.Fprintf(w, " logged ")
	switch {
	case t.once:
		fmt.Fprintf(w, "once: %d bytes\n", bytes)
		return
	case t.interval%time.Second == 0:
		fmt.Fprintf(w, "every %d sec: %d bytes ", t.interval/time.Second, bytes)
	default:
		fmt.Fprintf(w, "every %.3f sec: %d bytes ", t.interval.Seconds(), bytes)
	}
	fmt.Fprintf(w, "or %.2f Mbytes/day\n", float64(bytes)*24*60*60/(1024*1024*t.interval.Seconds()))
}

// putResult writes res with derived metrics' PMIDs as archives hold them,
// leaving res as fetched.
func (l *Logger) putResult(res *pcp.Result) error {
	var moved []int
	for i := range res.Sets {
		if p := loggedPMID(res.Sets[i].PMID); p != res.Sets[i].PMID {
			res.Sets[i].PMID = p
			moved = append(moved, i)
		}
	}
	err := l.w.PutResult(res)
	for _, i := range moved {
		p := res.Sets[i].PMID
		res.Sets[i].PMID = pcp.NewPMID(p.Domain(), p.Cluster()&^derivedLogged, p.Item())
	}
	return err
}
