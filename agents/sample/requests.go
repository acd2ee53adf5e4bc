package sample

import (
	"context"
	"strings"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// unavailFile, when it exists, makes a daemon agent answer every request
// with PM_ERR_AGAIN, as PCP's does: a way for tests to make it busy.
const unavailFile = "/tmp/sample.unavail"

// BeginRequest counts each request and its answer for the client, as
// pmda.RequestHook.
func (s *agent) BeginRequest(ctx context.Context, c pmda.Client, t pdu.Type, ident uint32) error {
	if !s.dso {
		if unavailable() {
			return pcp.ErrAgain
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ctx.recv(c)
	s.ctx.xmit(c)
	if s.notReady > 0 && !s.dso && t != pdu.TypeLabelReq {
		// Busy, as sample.not_ready asked: pmcd hears so now and that
		// the agent is ready again once AwaitReady returns.
		return pcp.ErrPMDANotReady
	}
	if t == pdu.TypeTextReq && s.errorCode < 0 && pcp.PMID(ident) == pcp.NewPMID(s.domain, 0, itemErrorCheck) {
		return pcp.Error(s.errorCode)
	}
	return nil
}

// AwaitReady is pmda.Readier: the agent stays busy for the seconds
// stored in sample.not_ready, then is ready again.
func (s *agent) AwaitReady(ctx context.Context) {
	s.mu.Lock()
	d := time.Duration(s.notReady) * time.Second
	s.mu.Unlock()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
	s.mu.Lock()
	s.notReady = 0
	s.mu.Unlock()
}

// ProfileArrived counts a profile as a request received.
func (s *agent) ProfileArrived(c pmda.Client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ctx.recv(c)
}

// EndContext forgets a client, keeping its counts in the totals.
func (s *agent) EndContext(c pmda.Client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ctx.end(c)
}

// Desc answers descriptor requests, as pmda.Describer: some metrics have
// none on purpose, sample.error_check fails while sample.error_code holds
// an error, and sample.dynamic.meta.metric has whatever descriptor stores
// gave it.
func (s *agent) Desc(ctx context.Context, c pmda.Client, pmid pcp.PMID) (pcp.Desc, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.def(pmid.Item())
	if d == nil || pmid.Domain() != s.domain || pmid.Cluster() != 0 {
		return pcp.Desc{}, pcp.ErrPMID
	}
	switch item := pmid.Item(); {
	case item == itemBadUnknown:
		return pcp.Desc{}, pcp.ErrPMID
	case item == itemErrorCheck && s.errorCode < 0:
		return pcp.Desc{}, pcp.Error(s.errorCode)
	case item == itemDynamicMetaMetric:
		return s.magic, nil
	case item >= itemGhostsOrigin && item <= itemGhostsState && s.visible < 0:
		return pcp.Desc{}, pcp.ErrPMID
	}
	desc := pcp.Desc{PMID: pmid, Type: d.typ, InDom: pcp.InDomNull, Sem: d.sem, Units: d.units}
	if d.indom != noInDom {
		desc.InDom = pcp.NewInDom(s.domain, d.indom)
	}
	return desc, nil
}

// dynamicNames are the names the agent serves itself, below the
// namespace's dynamic entries sample.secret and sample.ghosts. The first
// is an alias for a metric of pmcd's own agent (pmcd.agent.status).
var dynamicNames = []struct {
	name string
	item uint32
}{
	{"secret.foo.bar.max.redirect", 0},
	{"secret.bar", itemSecretBar},
	{"secret.foo.one", itemSecretFooOne},
	{"secret.foo.two", itemSecretFooTwo},
	{"secret.foo.bar.three", itemSecretFooBarThree},
	{"secret.foo.bar.four", itemSecretFooBarFour},
	{"secret.foo.bar.grunt.five", itemSecretFooBarGruntFive},
	{"secret.foo.bar.grunt.snort.six", itemSecretFooBarGruntSnortSix},
	{"secret.foo.bar.grunt.snort.huff.puff.seven", itemSecretFooBarGruntSnortHuffPuffSeven},
	{"ghosts.visible", itemGhostsVisible},
	{"ghosts.origin", itemGhostsOrigin},
	{"ghosts.karma", itemGhostsKarma},
	{"ghosts.state", itemGhostsState},
}

// namePMID is the PMID behind a dynamic name.
func (s *agent) namePMID(i int) pcp.PMID {
	if i == 0 {
		return pcp.NewPMID(2, 4, 1)
	}
	return pcp.NewPMID(s.domain, 0, dynamicNames[i].item)
}

// hidden reports whether dynamic name i is out of the namespace: the
// ghosts' metrics until some ghosts are made visible.
func (s *agent) hidden(i int) bool {
	it := dynamicNames[i].item
	return s.visible < 0 && it >= itemGhostsOrigin && it <= itemGhostsState
}

func (s *agent) prefix() string {
	if s.dso {
		return "sampledso."
	}
	return "sample."
}

// afterRoot drops the first component of name ("sample." or whatever the
// namespace calls the agent).
func afterRoot(name string) (root, rest string) {
	root, rest, _ = strings.Cut(name, ".")
	return root, rest
}

// LookupName answers pmda.Namer.
func (s *agent) LookupName(ctx context.Context, c pmda.Client, name string) (pcp.PMID, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, rest := afterRoot(name)
	for i, d := range dynamicNames {
		if d.name == rest && !s.hidden(i) {
			return s.namePMID(i), nil
		}
	}
	return pcp.PMIDNull, pcp.ErrName
}

// Names answers pmda.Namer.
func (s *agent) Names(ctx context.Context, c pmda.Client, pmid pcp.PMID) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var names []string
	for i, d := range dynamicNames {
		if s.namePMID(i) == pmid && !s.hidden(i) {
			names = append(names, s.prefix()+d.name)
		}
	}
	if names == nil {
		return nil, pcp.ErrPMID
	}
	return names, nil
}

// Children answers pmda.Namer: the next components below name.
func (s *agent) Children(ctx context.Context, c pmda.Client, name string) ([]string, []int32, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, rest := afterRoot(name)
	var names []string
	var status []int32
	for i, d := range dynamicNames {
		if s.hidden(i) || !strings.HasPrefix(d.name, rest) || len(d.name) <= len(rest) || d.name[len(rest)] != '.' {
			continue
		}
		child, _, more := strings.Cut(d.name[len(rest)+1:], ".")
		seen := false
		for _, n := range names {
			if n == child {
				seen = true
				break
			}
		}
		if seen {
			continue
		}
		names = append(names, child)
		if more {
			status = append(status, pdu.PMNSNonLeafStatus)
		} else {
			status = append(status, pdu.PMNSLeafStatus)
		}
	}
	return names, status, nil
}

// Traverse answers pmda.Namer: every full name at or below name.
func (s *agent) Traverse(ctx context.Context, c pmda.Client, name string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	root, rest := afterRoot(name)
	var names []string
	for i, d := range dynamicNames {
		if s.hidden(i) || !strings.HasPrefix(d.name, rest) {
			continue
		}
		if len(d.name) > len(rest) && d.name[len(rest)] != '.' {
			continue
		}
		names = append(names, root+"."+d.name)
	}
	return names, nil
}

// LabelSets answers the label requests whose answers change: the item
// labels of the write_me metrics (optional notes saying whether a store
// changed them), sample.rapid's, and instance labels without refreshing
// any domain.
func (s *agent) LabelSets(ctx context.Context, c pmda.Client, ident uint32, level uint8) ([]pcp.LabelSet, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch level &^ (pcp.LabelCompound | pcp.LabelOptional) {
	case pcp.LabelItem:
		id := pcp.PMID(ident)
		if id.Domain() != s.domain || id.Cluster() != 0 {
			return nil, true, nil
		}
		var changed bool
		switch id.Item() {
		case itemLongWriteMe:
			changed = s.long != 13
		case itemLonglongWriteMe:
			changed = s.longlong != 13
		case itemFloatWriteMe:
			changed = s.float != 13
		case itemDoubleWriteMe:
			changed = s.double != 13
		case itemWriteMe:
			changed = s.writeMe != 2
		case itemUlongWriteMe:
			changed = s.ulong != 13
		case itemUlonglongWriteMe:
			changed = s.ulonglong != 13
		case itemRapid:
			set, err := pmda.NewLabelSet(pcp.InstNull, pcp.LabelItem, []pmda.Label{
				{Name: "measure", Value: "speed"},
				{Name: "units", Value: "metres per second"},
				{Name: "unitsystem", Value: "SI"},
			})
			return []pcp.LabelSet{set}, true, err
		default:
			return nil, true, nil
		}
		set, err := pmda.NewLabelSet(pcp.InstNull, pcp.LabelItem|pcp.LabelOptional, []pmda.Label{{Name: "changed", Value: changed}})
		return []pcp.LabelSet{set}, true, err
	case pcp.LabelInstances:
		indom := pcp.InDom(ident)
		if indom == pcp.InDomNull {
			return nil, true, nil
		}
		insts, err := s.members(indom)
		if err != nil {
			return nil, true, err
		}
		sets := make([]pcp.LabelSet, 0, len(insts))
		for _, in := range insts {
			set := pcp.LabelSet{Inst: in.ID}
			if len(in.Labels) > 0 {
				if set, err = pmda.NewLabelSet(in.ID, pcp.LabelInstances, in.Labels); err != nil {
					return nil, true, err
				}
			}
			sets = append(sets, set)
		}
		return sets, true, nil
	}
	return nil, false, nil
}
