package pmlogger

import (
	"cmp"
	"slices"

	"github.com/gopcp/gopcp/pcp"
)

// indomInsts is one instance domain of a task's instance profile and the
// only instances of it the task fetches.
type indomInsts struct {
	indom pcp.InDom
	insts []int32
}

// setProfile sets the source's instance profile for t's fetch as
// pmlogger does before each: every instance of every domain, then, for
// each instance domain whose metrics in t all name instances, just those.
// Agents then work out only the values asked for (the sample agent's
// counters show how many), and filterInsts still keeps each metric to
// its own instances.
func (l *Logger) setProfile(t *task) error {
	if t.profile == nil {
		t.profile = taskProfile(t)
	}
	if err := l.src.AddProfile(pcp.InDomNull, nil); err != nil {
		return err
	}
	for _, p := range t.profile {
		if err := l.src.AddProfile(p.indom, p.insts); err != nil {
			return err
		}
	}
	return nil
}

// taskProfile works out t's instance profile, in instance domain order;
// it is never nil.
func taskProfile(t *task) []indomInsts {
	sets := map[pcp.InDom]map[int32]bool{}
	all := map[pcp.InDom]bool{}
	for _, pmid := range t.pmids {
		d, ok := t.descs[pmid]
		if !ok || d.InDom == pcp.InDomNull {
			continue
		}
		want := t.insts[pmid]
		if len(want) == 0 {
			all[d.InDom] = true
			continue
		}
		if sets[d.InDom] == nil {
			sets[d.InDom] = map[int32]bool{}
		}
		for in := range want {
			sets[d.InDom][in] = true
		}
	}
	out := []indomInsts{}
	for indom, set := range sets {
		if all[indom] {
			continue
		}
		insts := make([]int32, 0, len(set))
		for in := range set {
			insts = append(insts, in)
		}
		slices.Sort(insts)
		out = append(out, indomInsts{indom, insts})
	}
	slices.SortFunc(out, func(a, b indomInsts) int { return cmp.Compare(a.indom, b.indom) })
	return out
}
