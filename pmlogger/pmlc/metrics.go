package pmlc

import (
	"fmt"
	"strings"
	"time"

	"github.com/gopcp/gopcp/internal/pcptz"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// indomInfo is an instance domain's instances, fetched once a session
// (pmlc keeps them until it exits).
type indomInfo struct {
	indom pcp.InDom
	insts []int32
	names []string
}

// metric is one metric of a statement and the instances asked for.
type metric struct {
	name                     string
	pmid                     pcp.PMID
	indom                    int // index in metricList.indoms, -1 for none
	insts                    []int32
	selected, isNew, hasInst bool
}

// metricList is the statement's metrics, built as its names are read.
type metricList struct {
	metrics     []metric
	indoms      []indomInfo
	hadInsts    bool
	firstInst   bool
	doneInstMsg bool
	req         []pcp.ValueSet
}

// maxMetrics bounds one statement's metrics.
const maxMetrics = 1 << 20

func (s *Session) beginMetrics() {
	s.metricCnt = 0
	s.ml.metrics = s.ml.metrics[:0]
}

// addName adds the metrics under name (a leaf or a subtree).
func (s *Session) addName(name string) {
	ml := &s.ml
	ml.hadInsts, ml.firstInst = false, true
	for i := range ml.metrics {
		ml.metrics[i].selected, ml.metrics[i].isNew = false, false
	}
	var err error
	if s.src == nil {
		err = pcp.ErrNoContext
	} else {
		var leaves []string
		leaves, err = s.src.Traverse(s.ctx, name)
		for _, leaf := range leaves {
			s.addMetric(leaf)
		}
	}
	code := int32(0)
	if err != nil {
		code = pcp.CodeOf(err, pcp.ErrPMNS).Code()
		s.metricCnt = int(code)
	} else if s.metricCnt < 0 {
		code = int32(s.metricCnt)
	}
	if code < 0 || s.metricCnt == 0 {
		msg := fmt.Sprintf("Problem with lookup for metric \"%s\" ...", name)
		if len(msg) > 159 {
			msg = msg[:159]
		}
		s.yywarn(msg)
		if code < 0 {
			s.errf("Reason: %s\n", pcp.ErrorText(code))
		}
	}
}

func (s *Session) addMetric(name string) {
	if s.metricCnt < 0 {
		return
	}
	ml := &s.ml
	pmid, err := s.src.LookupName(s.ctx, name)
	if err != nil {
		s.metricCnt = int(pcp.CodeOf(err, pcp.ErrName).Code())
		return
	}
	for i := range ml.metrics {
		if ml.metrics[i].pmid == pmid {
			ml.metrics[i].selected = true
			return
		}
	}
	if len(ml.metrics) >= maxMetrics {
		s.metricCnt = int(pcp.ErrTooBig)
		return
	}
	desc, err := s.src.LookupDesc(s.ctx, pmid)
	if pcp.CodeOf(err, 0) == pcp.ErrPMID || err == nil && desc.Type == pcp.TypeNoSupport {
		return
	}
	if err != nil {
		s.metricCnt = int(pcp.CodeOf(err, pcp.ErrPMID).Code())
		return
	}
	idx := -1
	if desc.InDom != pcp.InDomNull {
		if idx, err = s.addInDom(desc.InDom); err != nil {
			s.metricCnt = int(pcp.CodeOf(err, pcp.ErrInDom).Code())
			return
		}
	}
	ml.metrics = append(ml.metrics, metric{name: name, pmid: pmid, indom: idx, selected: true, isNew: true})
	s.metricCnt = len(ml.metrics)
}

func (s *Session) addInDom(indom pcp.InDom) (int, error) {
	for i, in := range s.ml.indoms {
		if in.indom == indom {
			return i, nil
		}
	}
	list, err := s.src.GetInDom(s.ctx, indom)
	if err != nil {
		return -1, err
	}
	info := indomInfo{indom: indom}
	for _, in := range list {
		info.insts = append(info.insts, in.Inst)
		info.names = append(info.names, in.Name)
	}
	s.ml.indoms = append(s.ml.indoms, info)
	return len(s.ml.indoms) - 1, nil
}

// endMetGroup settles the instances of a name's metrics once its
// instance list (if any) has been read.
func (s *Session) endMetGroup() {
	ml := &s.ml
	if len(ml.metrics) == 0 {
		if s.metricCnt >= 0 {
			s.metricCnt = int(pcp.ErrPMID)
		}
		return
	}
	for i := range ml.metrics {
		mp := &ml.metrics[i]
		if !mp.selected {
			continue
		}
		switch {
		case mp.isNew:
			if mp.indom != -1 && !ml.hadInsts {
				mp.insts = ml.indoms[mp.indom].insts
				mp.hasInst = false
			}
		case mp.indom == -1:
			s.errf("Warning: %s has already been specified\n", mp.name)
		case mp.hasInst:
			if !ml.hadInsts {
				s.errf("Warning: %s had instance(s) specified previously.\n"+
					"         Using all instances since none specified this time\n", mp.name)
				mp.insts = ml.indoms[mp.indom].insts
				mp.hasInst = false
			}
		case !ml.hadInsts:
			s.errf("Warning: already using all instances for %s\n", mp.name)
		default:
			s.errf("Warning: instance(s) specified for %s\n"+
				"         (already using all instances)\n", mp.name)
		}
	}
}

// addInst adds an instance (by name, or number) to the selected metrics.
func (s *Session) addInst(name string, id int32, byName bool) {
	ml := &s.ml
	if s.metricCnt < 0 {
		return
	}
	ml.hadInsts = true
	first := -1
	for i := range ml.metrics {
		if ml.metrics[i].selected {
			first = i
			break
		}
	}
	if first < 0 {
		// pmlc aborts here; say so and drop the statement
		s.errf("Internal botch: No metrics selected for addinst(%s, %d)\n", name, id)
		s.metricCnt = int(pcp.ErrInst)
		return
	}
	fm := &ml.metrics[first]
	if ml.firstInst {
		ml.firstInst = false
		bad, null := false, false
		for i := first; i < len(ml.metrics); i++ {
			mp := &ml.metrics[i]
			if !mp.selected {
				continue
			}
			if mp.indom == -1 {
				s.errf("Error: %s has no instance domain but an instance was specified\n", mp.name)
				null = true
			}
			if i == first || fm.indom == mp.indom {
				continue
			}
			if !bad {
				s.errf("Error: different instance domains:\n")
				s.errf("    %s (%s)\n", fm.name, indomStr(ml, fm.indom))
				bad = true
			}
			s.errf("    %s (%s)\n", mp.name, indomStr(ml, mp.indom))
		}
		if bad || null {
			s.metricCnt = int(pcp.ErrInDom)
			return
		}
	}
	ip := &ml.indoms[fm.indom]
	k := 0
	for ; k < len(ip.insts); k++ {
		if byName && strings.EqualFold(name, ip.names[k]) || !byName && id == ip.insts[k] {
			break
		}
	}
	for i := first; i < len(ml.metrics); i++ {
		mp := &ml.metrics[i]
		if !mp.selected {
			continue
		}
		if k >= len(ip.insts) {
			if mp.hasInst || mp.isNew {
				s.metricCnt = int(pcp.ErrInst)
				if byName {
					s.errf("Error: metric %s currently has no instance named %s\n", mp.name, name)
				} else {
					s.errf("Error: metric %s currently has no instance number %d\n", mp.name, id)
				}
				if !ml.doneInstMsg {
					s.errf("    - you may only specify metric instances active now.  However if no\n" +
						"      instances are specified, pmlogger will use all of the instances\n" +
						"      available at the time the metric is logged\n")
					ml.doneInstMsg = true
				}
			} else {
				if byName {
					s.errf("Warning: instance name %s not currently in metric %s's instance domain\n", name, mp.name)
				} else {
					s.errf("Warning: instance number %d not currently in metric %s's instance domain\n", id, mp.name)
				}
				s.errf("         (getting all instances anyway)\n")
			}
			continue
		}
		inst := ip.insts[k]
		have := false
		for _, x := range mp.insts {
			if x == inst {
				have = true
				break
			}
		}
		if have {
			if mp.hasInst {
				if byName {
					s.errf("Warning: instance name %s already specified for metric %s\n", name, mp.name)
				} else {
					s.errf("Warning: instance number %d already specified for %s\n", id, mp.name)
				}
			}
			continue
		}
		if mp.isNew || mp.hasInst {
			if len(mp.insts) == 0 {
				mp.hasInst = true
			}
			mp.insts = append(mp.insts[:len(mp.insts):len(mp.insts)], inst)
		}
	}
}

func indomStr(ml *metricList, i int) string {
	if i == -1 {
		return "PM_INDOM_NULL"
	}
	return ml.indoms[i].indom.String()
}

// endMetrics builds the request from the statement's metrics.
func (s *Session) endMetrics() {
	if s.metricCnt < 0 {
		if s.connected() {
			s.errf("Logging statement ignored due to error(s)\n")
		}
		return
	}
	s.ml.req = s.ml.req[:0]
	for _, mp := range s.ml.metrics {
		vs := pcp.ValueSet{PMID: mp.pmid, ValFmt: pcp.ValInSitu}
		switch {
		case mp.indom == -1:
			vs.NumVal = 1
			vs.Values = []pcp.Value{{Inst: -1}}
		case mp.hasInst:
			vs.NumVal = int32(len(mp.insts))
			for _, in := range mp.insts {
				vs.Values = append(vs.Values, pcp.Value{Inst: in})
			}
		}
		s.ml.req = append(s.ml.req, vs)
	}
}

// instName is an instance's name in the metric's domain, or "???".
func (s *Session) instName(mp *metric, inst int32) string {
	ip := &s.ml.indoms[mp.indom]
	for k, x := range ip.insts {
		if x == inst {
			return ip.names[k]
		}
	}
	return "???"
}

// Bits of pmlogger's answer to LOG_CONTROL (PMLC_* in PCP).
const (
	lcOn    = 1 << 0
	lcMand  = 1 << 1
	lcAvail = 1 << 2
	lcInLog = 1 << 3
)

func lcDelta(v int32) int32 { return (v &^ 0xf) >> 4 & maxDelta }

// printState formats one instance's logging state as pmlc's query shows
// it: mandatory or advisory, on or off, whether logged, and the interval.
func printState(b *strings.Builder, v int32) {
	if v&lcMand != 0 {
		b.WriteString("mand ")
	} else {
		b.WriteString("adv  ")
	}
	on := v&lcOn != 0
	if on {
		b.WriteString("on  ")
	} else {
		b.WriteString("off ")
	}
	switch {
	case v&lcInLog == 0:
		b.WriteString("nl ")
	case v&lcAvail != 0:
		b.WriteString("   ")
	default:
		b.WriteString("na ")
	}
	if !on {
		b.WriteString("            ")
		return
	}
	delta := lcDelta(v)
	if delta == 0 {
		b.WriteString("        once")
		return
	}
	units := [...]string{"msec", "sec ", "min ", "hour"}
	factors := [...]float32{1000, 60, 60, 24}
	t := float32(delta)
	i := 0
	for ; i < len(factors); i++ {
		if t < factors[i] {
			break
		}
		t = float32(t / factors[i])
	}
	if i >= len(factors) {
		i = len(factors) - 1
	}
	frac := int32(float32(float32(t-float32(int32(t))) * 1000))
	j := 0
	switch {
	case frac%10 != 0:
		j = 3
	case frac%100 != 0:
		j = 2
	case frac%1000 != 0:
		j = 1
	}
	fmt.Fprintf(b, "%*.*f %s", 7-j, j, float64(t), units[i])
}

// query prints the logging state of the statement's metrics.
func (s *Session) query() {
	if !s.connected() {
		return
	}
	res, err := s.conn.Control(s.ctx, pdu.LogEnquire, 0, 0, s.ml.req)
	if err != nil {
		s.errf("Error receiving response from pmlogger: ")
		if s.stillConnected(err) {
			s.errf("%s\n", errText(err))
		}
		return
	}
	var b strings.Builder
	defer func() { s.outf("%s", b.String()) }()
	for i := range s.ml.metrics {
		mp := &s.ml.metrics[i]
		vs := s.answerFor(res, i, &b)
		if vs == nil {
			return
		}
		b.WriteString(mp.name + "\n")
		switch {
		case vs.NumVal < 0:
			b.WriteString("    " + pcp.ErrorText(vs.NumVal) + "\n")
		case mp.indom == -1:
			b.WriteString("    ")
			if len(vs.Values) > 0 {
				printState(&b, vs.Values[0].LVal)
			}
			b.WriteString("\n")
		case mp.hasInst:
			for _, inst := range mp.insts {
				k := valueIndex(vs, inst)
				if k < 0 {
					fmt.Fprintf(&b, "                  [%d] (not found)\n", inst)
					continue
				}
				b.WriteString("    ")
				printState(&b, vs.Values[k].LVal)
				fmt.Fprintf(&b, " [%d or \"%s\"]\n", inst, s.instName(mp, inst))
			}
		case vs.NumVal == 0:
			b.WriteString("    (no instances)\n")
		default:
			for _, v := range vs.Values {
				b.WriteString("    ")
				printState(&b, v.LVal)
				fmt.Fprintf(&b, " [%d or \"%s\"]\n", v.Inst, s.instName(mp, v.Inst))
			}
		}
		b.WriteString("\n")
	}
}

// answerFor is the logger's answer for the statement's i'th metric, or
// nil (after pmlc's complaint, what was printed so far written first)
// when the answer does not hold it there.
func (s *Session) answerFor(res *pcp.Result, i int, b *strings.Builder) *pcp.ValueSet {
	mp := &s.ml.metrics[i]
	if i >= len(res.Sets) || res.Sets[i].PMID != mp.pmid {
		s.outf("%s", b.String())
		b.Reset()
		s.errf("GAK! %s not found in returned result\n", mp.name)
		return nil
	}
	return &res.Sets[i]
}

func valueIndex(vs *pcp.ValueSet, inst int32) int {
	for k, v := range vs.Values {
		if v.Inst == inst {
			return k
		}
	}
	return -1
}

// logCtl asks the logger to change the statement's metrics and reports
// those whose new state is not the one asked for.
func (s *Session) logCtl(control, state int32, delta int) {
	if !s.connected() {
		return
	}
	res, err := s.conn.Control(s.ctx, control, state, int32(delta), s.ml.req)
	if err != nil {
		if pcp.CodeOf(err, 0) == pcp.ErrGeneric {
			s.errf("Error: NULL result from __pmControlLog\n")
			return
		}
		s.errf("Error receiving response from pmlogger: ")
		if s.stillConnected(err) {
			s.errf("%s\n", errText(err))
		}
		return
	}
	var exp, mask int32
	if state != pdu.LogMaybe {
		if control == pdu.LogMandatory {
			exp |= lcMand
		}
		if state == pdu.LogOn {
			exp |= lcOn
		}
		mask = lcMand | lcOn
	} else {
		mask = lcMand
	}
	expDelta := int32(0)
	if exp&lcOn != 0 {
		expDelta = int32(delta)
	}
	const heading = "Warning: unable to change logging state for:\n"
	var b strings.Builder
	defer func() { s.outf("%s", b.String()) }()
	first := true
	head := func() {
		if first {
			first = false
			b.WriteString(heading)
		}
	}
	differs := func(v int32) bool { return v&(lcOn|lcMand)&mask != exp || lcDelta(v) != expDelta }
	for i := range s.ml.metrics {
		mp := &s.ml.metrics[i]
		vs := s.answerFor(res, i, &b)
		if vs == nil {
			return
		}
		if vs.NumVal < 0 {
			head()
			fmt.Fprintf(&b, "%s:%s\n", mp.name, pcp.ErrorText(vs.NumVal))
			continue
		}
		if mp.indom == -1 {
			if len(vs.Values) > 0 && differs(vs.Values[0].LVal) {
				head()
				fmt.Fprintf(&b, "%s\n\n", mp.name)
			}
			continue
		}
		had := false
		note := func(title string) {
			head()
			if !had {
				had = true
				b.WriteString(mp.name + title + "\n")
			}
		}
		if mp.hasInst {
			for _, inst := range mp.insts {
				name := s.instName(mp, inst)
				k := valueIndex(vs, inst)
				if k < 0 {
					note("")
					fmt.Fprintf(&b, "    [%d or \"%s\"] instance not found\n", inst, name)
					continue
				}
				if differs(vs.Values[k].LVal) {
					note(" instance(s):")
					fmt.Fprintf(&b, "    [%d or \"%s\"]\n", inst, name)
				}
			}
		} else {
			for _, v := range vs.Values {
				if differs(v.LVal) {
					note(" instance(s):")
					fmt.Fprintf(&b, "    [%d or \"%s\"]\n", v.Inst, s.instName(mp, v.Inst))
				}
			}
		}
		if had {
			b.WriteString("\n")
		}
	}
}

// loadZone is pmNewZone's zone for a TZ string.
func loadZone(tz string) *time.Location { return pcptz.Load(tz) }
