package pmlogger

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// task is one group of metrics fetched together at one interval, as
// pmlogger groups the clauses of its configuration by state and
// interval.
type task struct {
	state    State
	interval time.Duration
	once     bool
	pmids    []pcp.PMID
	descs    map[pcp.PMID]pcp.Desc
	names    map[pcp.PMID][]string // names the configuration used
	insts    map[pcp.PMID]map[int32]bool
	last     map[pcp.PMID][]int32 // instances of the last fetch
	next     time.Time
	done     bool
	reported bool         // -r's report printed
	profile  []indomInsts // the instance profile of its fetches; nil: to be worked out
}

// req is one logging request inside a task: a metric and the instances
// it names (nil for all of them).
type req struct {
	pmid  pcp.PMID
	insts []int32
}

// Plan is a configuration resolved against a source: the fetch tasks a
// Logger runs (Options.Plan). Resolving first lets pmlogger report the
// configuration's problems before it says the configuration is parsed,
// as PCP's does.
type Plan struct {
	tasks []*task
}

// ResolvePlan resolves cfg against src as New would, reporting problems
// to log as pmlogger's warnings.
func ResolvePlan(ctx context.Context, src pmapi.Source, cfg *Config, file string, log io.Writer) (*Plan, error) {
	tasks, err := resolve(ctx, src, cfg, file, log)
	if err != nil {
		return nil, err
	}
	return &Plan{tasks: tasks}, nil
}

// Resolve checks a configuration against src as pmlogger -C does: the
// names, descriptors and instances are looked up and problems reported
// to log as pmlogger's warnings. It returns the number of fetch tasks
// that would log something.
func Resolve(ctx context.Context, src pmapi.Source, cfg *Config, file string, log io.Writer) (int, error) {
	tasks, err := resolve(ctx, src, cfg, file, log)
	return len(tasks), err
}

// resolve turns the configuration's statements into tasks, one per
// distinct state and interval, in order of first appearance (with "log
// once" tasks first). Names are expanded through the namespace and
// instance names looked up. Conflicts are settled as pmlogger settles
// them: an advisory request for a metric (or instance) already under
// mandatory control is refused with a warning; a later request for
// named instances takes them out of an earlier request that named them;
// and, as in PCP, a later request for all instances leaves an earlier
// one in place, so the metric may be fetched by both tasks. Problems are
// reported to log as pmlogger's warnings and the metric skipped.
func resolve(ctx context.Context, src pmapi.Source, cfg *Config, file string, log io.Writer) ([]*task, error) {
	var tasks []*task
	reqs := map[*task][]*req{}
	for _, st := range cfg.Statements {
		stFile := file
		if st.File != "" {
			stFile = st.File
		}
		var m MetricSpec // the metric being taken: its line is the warnings'
		warn := func(line int, format string, args ...any) {
			file := stFile
			if m.File != "" {
				file = m.File
			}
			if m.Line > 0 {
				line = m.Line
			}
			fmt.Fprintf(log, "Warning [%s, line %d]\n%s\n", file, line, fmt.Sprintf(format, args...))
		}
		var t *task
		for _, c := range tasks {
			if c.state == st.State && c.interval == st.Interval && c.once == st.Once {
				t = c
				break
			}
		}
		if t == nil {
			t = &task{state: st.State, interval: st.Interval, once: st.Once,
				descs: map[pcp.PMID]pcp.Desc{}, names: map[pcp.PMID][]string{},
				insts: map[pcp.PMID]map[int32]bool{}, last: map[pcp.PMID][]int32{}}
			tasks = append(tasks, t)
		}
		advisory := !st.State.Mandatory && !st.State.Maybe
		for _, m = range st.Metrics {
			names, err := src.Traverse(ctx, m.Name)
			if err == nil && len(names) == 0 {
				err = pcp.ErrName
			}
			if err != nil {
				warn(st.Line, "Problem with lookup for metric \"%s\" ... logging not activated", m.Name)
				fmt.Fprintf(log, "Reason: %s\n", pcp.TextOf(err))
				if errors.Is(err, pcp.ErrIPC) {
					return nil, err
				}
				continue
			}
			pmids, err := src.LookupNames(ctx, names)
			if err != nil && pmids == nil {
				return nil, err
			}
			for i, pmid := range pmids {
				name := names[i]
				if pmid == pcp.PMIDNull {
					warn(st.Line, "Metric \"%s\" is unknown ... not logged", name)
					continue
				}
				desc, err := src.LookupDesc(ctx, pmid)
				if err != nil {
					warn(st.Line, "Description unavailable for metric \"%s\" ... not logged", name)
					fmt.Fprintf(log, "Reason: %s\n", pcp.TextOf(err))
					continue
				}
				t.descs[pmid] = desc
				if !slices.Contains(t.names[pmid], name) {
					t.names[pmid] = append(t.names[pmid], name)
				}
				if len(m.Insts) == 0 {
					addAll(t, tasks, reqs, pmid, advisory, func() {
						warn(st.Line, "Incompatible request for metric \"%s\"", name)
					})
					continue
				}
				var kept []int32
				for _, is := range m.Insts {
					inst, ok := lookupInst(ctx, src, desc.InDom, is)
					if !ok {
						warn(st.Line, "Instance \"%s\" is not defined for the metric \"%s\"", is, name)
						continue
					}
					if addOne(t, tasks, reqs, pmid, inst, advisory, func(held *task) {
						// PCP names the instance as it was given,
						// and a number by its missing name, as C's
						// printf shows a null string.
						given := is.Name
						if is.ByNum {
							given = "(null)"
						}
						warn(st.Line, "Incompatible request for metric \"%s\" and instance \"%s\"", name, given)
						fmt.Fprintln(log, conflictText(t.state, held.state))
					}) {
						kept = append(kept, inst)
					}
				}
				if len(kept) > 0 {
					reqs[t] = append(reqs[t], &req{pmid: pmid, insts: kept})
				}
			}
		}
	}
	var out []*task
	for pass := 0; pass < 2; pass++ {
		for _, t := range tasks {
			// Mandatory off tasks fetch nothing but hold their
			// metrics off, against advisory requests (and for
			// pmlc's query), as in PCP.
			keep := t.state.On || (t.state.Mandatory && !t.state.Maybe)
			if t.once != (pass == 0) || !keep {
				continue
			}
			t.done = !t.state.On
			all := map[pcp.PMID]bool{}
			for _, r := range reqs[t] {
				if !slices.Contains(t.pmids, r.pmid) {
					t.pmids = append(t.pmids, r.pmid)
				}
				if r.insts == nil {
					all[r.pmid] = true
					delete(t.insts, r.pmid)
				}
				if all[r.pmid] {
					continue
				}
				set := t.insts[r.pmid]
				if set == nil {
					set = map[int32]bool{}
					t.insts[r.pmid] = set
				}
				for _, in := range r.insts {
					set[in] = true
				}
			}
			// libpcp's fetch optimiser keeps a fetch's PMIDs in
			// descending order, which is the order of the records.
			slices.SortFunc(t.pmids, func(a, b pcp.PMID) int { return cmp.Compare(b, a) })
			if len(t.pmids) > 0 {
				out = append(out, t)
			}
		}
	}
	return out, nil
}

// addAll adds a request for all of pmid's instances to t unless t has
// one (then widened to all) or a mandatory task refuses an advisory one.
func addAll(t *task, tasks []*task, reqs map[*task][]*req, pmid pcp.PMID, advisory bool, conflict func()) {
	for _, ot := range tasks {
		for _, r := range reqs[ot] {
			if r.pmid != pmid {
				continue
			}
			if ot == t {
				r.insts = nil
				return
			}
			if ot.state.Mandatory && advisory {
				conflict()
				return
			}
		}
	}
	reqs[t] = append(reqs[t], &req{pmid: pmid})
}

// addOne settles a request for one instance of pmid against earlier
// requests, reporting whether t should take it; conflict is given the
// mandatory task that refuses an advisory request.
func addOne(t *task, tasks []*task, reqs map[*task][]*req, pmid pcp.PMID, inst int32, advisory bool, conflict func(held *task)) bool {
	for _, ot := range tasks {
		for k, r := range reqs[ot] {
			if r.pmid != pmid || (r.insts != nil && !slices.Contains(r.insts, inst)) {
				continue
			}
			if ot == t {
				return false
			}
			if ot.state.Mandatory && advisory {
				conflict(ot)
				return false
			}
			if r.insts != nil {
				r.insts = slices.DeleteFunc(r.insts, func(i int32) bool { return i == inst })
				if len(r.insts) == 0 {
					reqs[ot] = slices.Delete(reqs[ot], k, k+1)
				}
			}
			return true
		}
	}
	return true
}

// lookupInst finds an instance the configuration names in indom, by name
// or number. A singular metric has no instances to name: PCP's lookups
// refuse its null domain, so any instance given for it is undefined.
func lookupInst(ctx context.Context, src pmapi.Source, indom pcp.InDom, is InstSpec) (int32, bool) {
	if indom == pcp.InDomNull {
		return 0, false
	}
	if is.ByNum {
		_, err := src.NameInDom(ctx, indom, is.Number)
		return is.Number, err == nil
	}
	n, err := src.LookupInDom(ctx, indom, is.Name)
	return n, err == nil
}

// conflictText is pmlogger's reason for refusing an advisory request
// for an instance a mandatory task holds, from the two tasks' on/off
// states.
func conflictText(req, held State) string {
	onOff := func(on bool) string {
		if on {
			return "ON"
		}
		return "OFF"
	}
	return fmt.Sprintf("Request for (advisory) %s conflicts with current (mandatory) %s state", onOff(req.On), onOff(held.On))
}
