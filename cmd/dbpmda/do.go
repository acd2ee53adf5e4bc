package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// exec runs a parsed statement; it reports whether to quit.
func (s *session) exec(st stmt) bool {
	need := func() bool {
		if s.conn == nil {
			s.errorf("Warning: No PMDA currently opened\n")
			return false
		}
		return true
	}
	start := time.Now()
	timed := false
	switch st.cmd {
	case "":
	case "quit":
		return true
	case "help":
		s.help(st.sub, st.usage)
	case "open":
		switch st.sub {
		case "pipe":
			s.openPipe(st.path, st.args)
		case "unix":
			s.openSocket("unix", st.path, "")
		case "inet":
			s.openSocket("tcp4", "127.0.0.1:"+strconv.Itoa(int(st.port)), fmt.Sprintf("inet port %d", st.port))
		case "ipv6":
			s.openSocket("tcp6", "[::1]:"+strconv.Itoa(int(st.port)), fmt.Sprintf("ipv6 port %d", st.port))
		case "dso":
			s.openDSO(st.path, st.entry, st.domain)
		}
		s.profileChanged = true
	case "close":
		if !need() {
			return false
		}
		s.close()
	case "status":
		s.status()
	case "timer":
		s.timer = st.on
	case "getdesc":
		s.getDesc = st.on
	case "getiname":
		s.getIname = st.on
	case "wait":
		time.Sleep(time.Duration(st.secs) * time.Second)
	case "watch":
		s.watch(st.path)
	case "debug":
		s.setDebug(st.flags)
	case "namespace":
		s.namespace(st.path)
	case "profile":
		s.profile.change(st.indom, st.prof, st.inst)
		s.profileChanged = true
	default:
		if !need() {
			return false
		}
		timed = s.request(st)
	}
	if timed && s.timer {
		s.printf("Timer: %f seconds\n", time.Since(start).Seconds())
	}
	return false
}

// answerErr prints what went wrong with reading an answer as dbpmda does.
func (s *session) answerErr(err error) {
	switch {
	case err == errDead:
		s.printf("Error: __pmGetPDU() failed: PDU empty, PMDA may have died\n")
	case err != nil:
		s.printf("Error: __pmGetPDU() failed: %s\n", pcp.TextOf(err))
	}
}

// reply reads an answer, printing an error PDU or a failure; ok is false
// when the answer is not the wanted kind.
func (s *session) reply(m pdu.Message, err error) (pdu.Message, bool) {
	s.dead = err == errDead
	if err != nil {
		s.answerErr(err)
		return nil, false
	}
	if e, ok := m.(*pdu.Error); ok {
		s.errorPDU(e.Code)
		return nil, false
	}
	return m, true
}

// isDSO reports whether the open agent is a DSO (a Go agent run in this
// process), which PCP's dbpmda calls directly and words apart.
func (s *session) isDSO() bool { return s.conn != nil && s.conn.kind == "dso" }

// dsoNone is PCP's dbpmda's note of a DSO callback that found nothing.
func (s *session) dsoNone(op string, n int) {
	if n == 0 && s.isDSO() {
		s.printf("Warning: DSO %s() returns 0\n", op)
	}
}

// errorPDU prints an agent's refusal as PCP's dbpmda does: an error PDU
// from a daemon, the failed callback of a DSO.
func (s *session) errorPDU(code int32) {
	if s.isDSO() {
		s.printf("Error: DSO %s() failed: %s\n", s.op, pcp.ErrorText(code))
		return
	}
	s.printf("Error PDU: %s\n", pcp.ErrorText(code))
}

// request sends the statement's request to the agent and prints the
// answer; it reports whether the request completed (for the timer).
func (s *session) request(st stmt) bool {
	switch st.cmd {
	case "desc":
		s.printf("PMID: %s\n", st.pmid)
		d, ok := s.desc(st.pmid)
		if ok {
			s.printf("%s", pcp.FormatDesc(d))
		}
		return ok
	case "fetch":
		line := "PMID(s):"
		for _, id := range st.pmids {
			line += " " + id.String()
		}
		s.printf("%s\n", line)
		var descs []pcp.Desc
		if s.getDesc || s.getIname {
			for _, id := range st.pmids {
				d, ok := s.desc(id)
				// PCP's dbpmda goes on after an empty answer (an agent
				// gone), which its error check does not catch
				if !ok && !s.dead {
					return false
				}
				descs = append(descs, d)
			}
		}
		if !s.sendProfile(false) {
			return false
		}
		m, ok := s.reply(s.call(&pdu.Fetch{PMIDs: st.pmids}))
		if !ok {
			return false
		}
		res, isRes := m.(*pdu.Result)
		if !isRes {
			s.printf("Error: __pmGetPDU() failed: wrong PDU (%x)\n", int(m.PDUType()))
			return false
		}
		s.printResult(&res.Result, descs)
		return true
	case "instance":
		s.printf("pmInDom: %s\n", st.indom)
		req := &pdu.InstanceReq{InDom: st.indom, Inst: st.inst, Name: st.name}
		m, ok := s.reply(s.call(req))
		if !ok {
			return false
		}
		in, isIn := m.(*pdu.Instance)
		if !isIn {
			s.printf("Error: __pmGetPDU() failed: wrong PDU (%x)\n", int(m.PDUType()))
			return false
		}
		s.printInstances(in, st.hasNum, st.name != "")
		return true
	case "store":
		return s.store(st)
	case "text":
		ident := uint32(st.pmid)
		typ := int32(pdu.TextPMID)
		if st.text {
			s.printf("pmInDom: %s\n", st.indom)
			ident, typ = uint32(st.indom), pdu.TextInDom
		} else {
			s.printf("PMID: %s\n", st.pmid)
		}
		all := true
		for i, kind := range []int32{pdu.TextOneLine, pdu.TextHelp} {
			m, ok := s.reply(s.call(&pdu.TextReq{Ident: ident, Type: typ | kind}))
			if !ok {
				all = false
				continue
			}
			t, isText := m.(*pdu.Text)
			if !isText {
				s.printf("Error: __pmGetPDU() failed: wrong PDU (%x)\n", int(m.PDUType()))
				all = false
				continue
			}
			switch {
			case i == 0 && t.Text != "":
				s.printf("[%s]\n", t.Text)
			case i == 0:
				s.printf("[<no one line help text specified>]\n")
			case t.Text != "":
				s.printf("%s\n", t.Text)
			default:
				s.printf("<no help text specified>\n")
			}
		}
		return all
	case "label":
		return s.label(st)
	case "name":
		s.printf("PMID: %s\n", st.pmid)
		m, ok := s.reply(s.call(&pdu.PMNSIDs{PMIDs: []pcp.PMID{st.pmid}}))
		if !ok {
			return false
		}
		if n, isNames := m.(*pdu.PMNSNames); isNames {
			for _, name := range n.Names {
				s.printf("   %s\n", name)
			}
			s.dsoNone("name", len(n.Names))
		}
		return true
	case "pmid":
		s.printf("Metric: %s\n", st.name)
		m, ok := s.reply(s.call(&pdu.PMNSNames{Names: []string{st.name}}))
		if !ok {
			return false
		}
		if ids, isIDs := m.(*pdu.PMNSIDs); isIDs && len(ids.PMIDs) > 0 {
			s.printf("   %s\n", ids.PMIDs[0])
		}
		return true
	case "children":
		s.printf("Metric: %s\n", st.name)
		m, ok := s.reply(s.call(&pdu.PMNSChild{Subtype: 1, Name: st.name}))
		if !ok {
			return false
		}
		if n, isNames := m.(*pdu.PMNSNames); isNames {
			for i, name := range n.Names {
				kind := "leaf"
				if i < len(n.Status) && n.Status[i] == pdu.PMNSNonLeafStatus {
					kind = "non-leaf"
				}
				s.printf("   %8.8s %s\n", kind, name)
			}
			s.dsoNone("children", len(n.Names))
		}
		return true
	case "traverse":
		s.printf("Metric: %s\n", st.name)
		m, ok := s.reply(s.call(&pdu.PMNSTraverse{Name: st.name}))
		if !ok {
			return false
		}
		if n, isNames := m.(*pdu.PMNSNames); isNames {
			for _, name := range n.Names {
				if s.isDSO() {
					// A DSO's traversal is its children callback's,
					// shown with each name's status (leaves all).
					s.printf("   %8.8s %s\n", "leaf", name)
					continue
				}
				s.printf("   %s\n", name)
			}
			s.dsoNone("children", len(n.Names))
		}
		return true
	case "attr":
		name := attrName(st.attr)
		val := "''"
		var b []byte
		if st.hasNum {
			val = st.value
			b = append([]byte(st.value), 0)
		}
		s.printf("Attribute: %s=%s\n", name, val)
		if err := s.send(&pdu.Attr{Key: pdu.AttrKey(st.attr), Value: b}); err != nil {
			s.printf("Error: __pmSendAuth() failed: %s\n", pcp.TextOf(err))
			return false
		}
		s.printf("Success\n")
		return true
	}
	return false
}

// desc asks for a descriptor; errors are printed.
func (s *session) desc(id pcp.PMID) (pcp.Desc, bool) {
	m, ok := s.reply(s.call(&pdu.DescReq{PMID: id}))
	if !ok {
		return pcp.Desc{}, false
	}
	d, isDesc := m.(*pdu.Desc)
	if !isDesc {
		s.printf("Error: __pmGetPDU() failed: wrong PDU (%x)\n", int(m.PDUType()))
		return pcp.Desc{}, false
	}
	return d.Desc, true
}

// sendProfile sends the profile if it changed since it was last sent.
func (s *session) sendProfile(announce bool) bool {
	if !s.profileChanged {
		return true
	}
	if announce {
		s.printf("Sending Profile...\n")
	}
	if err := s.send(s.profile.pdu()); err != nil {
		s.printf("Error: __pmSendProfile() failed: %s\n", pcp.TextOf(err))
		return false
	}
	s.profileChanged = false
	return true
}

// store fetches the metric's current values, replaces each with the
// value given, and sends them back, as dbpmda's store does.
func (s *session) store(st stmt) bool {
	s.printf("PMID: %s\n", st.pmid)
	s.printf("Getting description...\n")
	d, ok := s.desc(st.pmid)
	if !ok && !s.dead {
		return false
	}
	if !s.sendProfile(true) {
		return false
	}
	s.printf("Getting Result Structure...\n")
	m, ok := s.reply(s.call(&pdu.Fetch{PMIDs: []pcp.PMID{d.PMID}}))
	if !ok {
		return false
	}
	res, isRes := m.(*pdu.Result)
	if !isRes || len(res.Sets) == 0 {
		s.printf("Error: __pmGetPDU() failed: wrong PDU (%x)\n", int(m.PDUType()))
		return false
	}
	r := res.Result
	set := &r.Sets[0]
	atom, err := parseValue(st.value, d.Type)
	if err != nil {
		s.printf("%s", err.Error())
		return false
	}
	switch {
	case set.NumVal == 0:
		s.printf("Error: %s not available!\n", st.pmid)
		return false
	case set.NumVal < 0:
		s.printf("Error: %s: %s\n", st.pmid, pcp.ErrorText(set.NumVal))
		return false
	}
	for i := range set.Values {
		if set.NumVal > 1 {
			s.printf("%s [%d]: ", st.pmid, i)
		} else {
			s.printf("%s: ", st.pmid)
		}
		s.printf("%s", pcp.FormatValue(set.ValFmt, d.Type, &set.Values[i], 1))
		v, f, err := stuffValue(atom, d.Type, set.Values[i].Inst)
		if err != nil {
			s.printf("\nError: %s\n", pcp.TextOf(err))
			return false
		}
		set.Values[i] = v
		set.ValFmt = f
		s.printf(" -> %s\n", pcp.FormatValue(set.ValFmt, d.Type, &set.Values[i], 1))
	}
	s.printf("Sending Result...\n")
	m, err = s.call(&pdu.Result{Result: r})
	if err != nil {
		s.answerErr(err)
		return false
	}
	if e, ok := m.(*pdu.Error); ok {
		if e.Code < 0 {
			s.errorPDU(e.Code)
		}
		return true
	}
	s.printf("Error: __pmGetPDU() failed: wrong PDU (%x)\n", int(m.PDUType()))
	return false
}

// label asks for the labels of one level and prints each set.
func (s *session) label(st stmt) bool {
	var ident uint32
	var level uint8
	switch st.sub {
	case "context":
		level, ident = pcp.LabelContext, 0xffffffff
	case "domain":
		level, ident = pcp.LabelDomain, 0xffffffff
	case "indom":
		level, ident = pcp.LabelInDom, uint32(st.indom)
		s.printf("pmInDom: %s\n", st.indom)
	case "cluster":
		level, ident = pcp.LabelCluster, uint32(st.pmid)
		str := st.pmid.String()
		s.printf("Cluster: %s\n", str[:strings.LastIndexByte(str, '.')])
	case "item":
		level, ident = pcp.LabelItem, uint32(st.pmid)
		s.printf("PMID: %s\n", st.pmid)
	case "instances":
		level, ident = pcp.LabelInstances, uint32(st.indom)
		s.printf("Instances of pmInDom: %s\n", st.indom)
		if !s.sendProfile(false) {
			return false
		}
	}
	m, ok := s.reply(s.call(&pdu.LabelReq{Ident: ident, Type: int32(level)}))
	if !ok {
		return false
	}
	l, isLabel := m.(*pdu.Label)
	if !isLabel {
		s.printf("Error: __pmGetPDU() failed: wrong PDU (%x)\n", int(m.PDUType()))
		return false
	}
	for i := range l.Sets {
		set := &l.Sets[i]
		if set.Inst != pcp.InstNull {
			s.printf("[%3d] Labels inst: %d\n", i, set.Inst)
		} else {
			s.printf("Labels:\n")
		}
		for j := range set.Labels {
			s.printf("    %s=%s\n", set.LabelName(j), set.LabelValue(j))
		}
	}
	switch {
	case len(l.Sets) > 0:
	case s.isDSO():
		s.printf("Info: DSO label() returns 0\n")
	default:
		s.printf("Info: __pmDecodeLabel() returns 0 label sets\n")
	}
	return true
}

// printInstances prints an instance answer: numbers unless the request
// gave a number, names unless it gave a name.
func (s *session) printInstances(in *pdu.Instance, byNum, byName bool) {
	if len(in.Entries) == 0 {
		s.printf("Instance domain is empty\n")
		return
	}
	for i, e := range in.Entries {
		line := fmt.Sprintf("[%3d]", i)
		if !byNum {
			line += fmt.Sprintf(" inst: %d", e.Inst)
		}
		if !byName {
			line += fmt.Sprintf(" name: \"%s\"", e.Name)
		}
		s.printf("%s\n", line)
	}
}

// iname asks the agent for an instance's name, for getiname.
func (s *session) iname(indom pcp.InDom, inst int32) (string, bool) {
	m, ok := s.reply(s.call(&pdu.InstanceReq{InDom: indom, Inst: inst}))
	if !ok {
		return "", false
	}
	in, isIn := m.(*pdu.Instance)
	if !isIn || len(in.Entries) == 0 {
		return "", false
	}
	return in.Entries[0].Name, true
}

// printResult prints a fetch's answer as __pmPrintResult does, or with
// descriptors (getdesc, getiname) as dbpmda's own version does. A DSO's
// answer is PCP's pmResult of old, with a timeval, which PCP's dbpmda
// dumps with microseconds and its time with milliseconds
// (__pmDumpResult_v2); a daemon's comes in a PDU, with nanoseconds.
func (s *session) printResult(r *pcp.Result, descs []pcp.Desc) {
	var b strings.Builder
	when := time.Unix(r.Timestamp.Sec, int64(r.Timestamp.Nsec))
	if s.conn != nil && s.conn.kind == "dso" {
		fmt.Fprintf(&b, "pmResult dump from %p timestamp: %d.%06d %s", r, r.Timestamp.Sec, r.Timestamp.Nsec/1000,
			when.Format("15:04:05.000"))
	} else {
		fmt.Fprintf(&b, "__pmResult dump from %p timestamp: %d.%09d %s", r, r.Timestamp.Sec, r.Timestamp.Nsec,
			when.Format("15:04:05.000000000"))
	}
	fmt.Fprintf(&b, " numpmid: %d\n", len(r.Sets))
	s.printf("%s", b.String())
	for i := range r.Sets {
		b.Reset()
		set := &r.Sets[i]
		names, err := s.tree.NameAll(set.PMID)
		sep := ", "
		if descs != nil {
			sep = " or "
		}
		if err != nil || len(names) == 0 {
			fmt.Fprintf(&b, "  %s (<noname>):", set.PMID)
		} else {
			fmt.Fprintf(&b, "  %s (%s):", set.PMID, strings.Join(names, sep))
		}
		switch {
		case set.NumVal == 0:
			b.WriteString(" No values returned!\n")
			s.printf("%s", b.String())
			continue
		case set.NumVal < 0:
			fmt.Fprintf(&b, " %s\n", pcp.ErrorText(set.NumVal))
			s.printf("%s", b.String())
			continue
		}
		fmt.Fprintf(&b, " numval: %d valfmt: %d vlist[]:\n", set.NumVal, set.ValFmt)
		s.printf("%s", b.String())
		for j := range set.Values {
			v := &set.Values[j]
			b.Reset()
			indom := pcp.InDomNull
			if descs != nil {
				indom = descs[i].InDom
			}
			multi := set.NumVal > 1 || (descs != nil && indom != pcp.InDomNull) || (descs == nil && v.Inst != pcp.InstNull)
			if multi {
				fmt.Fprintf(&b, "    inst [%d", v.Inst)
				if descs != nil && s.getIname {
					// the name is asked for before the line is printed
					s.printf("%s", b.String())
					b.Reset()
					if name, ok := s.iname(indom, v.Inst); ok {
						fmt.Fprintf(&b, " or \"%s\"]", name)
					} else {
						b.WriteString(" or ???]")
					}
				} else {
					b.WriteString(" or ???]")
				}
				b.WriteByte(' ')
			} else {
				b.WriteString("   ")
			}
			b.WriteString("value ")
			switch {
			case descs != nil:
				b.WriteString(pcp.FormatValue(set.ValFmt, descs[i].Type, v, 1))
			case set.ValFmt == pcp.ValInSitu:
				b.WriteString(pcp.FormatValue(set.ValFmt, pcp.TypeUnknown, v, 1))
			default:
				b.WriteString(pcp.FormatValue(set.ValFmt, pcp.Type(v.Block.Type), v, 1))
			}
			b.WriteByte('\n')
			s.printf("%s", b.String())
		}
	}
}

// status prints the session's state.
func (s *session) status() {
	s.printf("\n")
	s.printf("Namespace:              %s\n", s.nsName)
	if s.conn == nil {
		s.printf("PMDA:                   none\n")
	} else {
		s.printf("PMDA:                   %s\n", s.conn.name)
		s.printf("Connection:             ")
		if s.conn.kind == "dso" {
			s.printf("dso\n")
			s.printf("DSO Interface Version:  7\n")
			s.printf("PMDA PMAPI Version:     2\n")
		} else {
			pid := 0
			if s.conn.cmd != nil && s.conn.cmd.Process != nil {
				pid = s.conn.cmd.Process.Pid
			}
			s.printf("daemon (pid: %d)\n", pid)
			if s.conn.ver == 0 {
				s.printf("PMDA PMAPI Version:     unknown!\n")
			} else {
				s.printf("PMDA PMAPI Version:     %d\n", s.conn.ver)
			}
		}
	}
	s.printf("Debug options:          %s\n", s.debugText())
	onOff := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	s.printf("Timer:                  %s\n", onOff(s.timer))
	s.printf("Getdesc:                %s\n", onOff(s.getDesc))
	s.printf("Getiname:               %s\n", onOff(s.getIname))
	s.printf("\n")
	s.printf("%s", s.profile.dump())
	s.printf("\n")
}
