package pmlogger

import (
	"context"
	"errors"
	"fmt"
	"io"
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
}

// want is one metric's resolved request.
type want struct {
	st       Statement
	name     string
	desc     pcp.Desc
	insts    map[int32]bool
	mandSeen bool
}

// resolve turns the configuration's statements into tasks: names are
// expanded through the namespace, instance names looked up, and for each
// metric the last mandatory request (or failing that the last advisory
// one) decides whether and how often it is logged. Problems are reported
// to log as pmlogger's warnings and the metric skipped.
func resolve(ctx context.Context, src pmapi.Source, cfg *Config, file string, log io.Writer) ([]*task, error) {
	byPMID := map[pcp.PMID]*want{}
	var order []pcp.PMID
	for _, st := range cfg.Statements {
		for _, m := range st.Metrics {
			names, err := src.Traverse(ctx, m.Name)
			if err == nil && len(names) == 0 {
				err = pcp.ErrName
			}
			if err != nil {
				fmt.Fprintf(log, "Warning [%s, line %d]\nProblem with lookup for metric \"%s\" ... logging not activated\nReason: %s\n",
					file, st.Line, m.Name, errText(err))
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
				if pmid == pcp.PMIDNull {
					continue
				}
				desc, err := src.LookupDesc(ctx, pmid)
				if err != nil {
					fmt.Fprintf(log, "Warning [%s, line %d]\nDescriptor unavailable for metric \"%s\" ... logging not activated\nReason: %s\n",
						file, st.Line, names[i], errText(err))
					continue
				}
				w := byPMID[pmid]
				if w == nil {
					w = &want{}
					byPMID[pmid] = w
					order = append(order, pmid)
				}
				// A mandatory request overrides any advisory one; a
				// later request of the same kind replaces an earlier.
				if st.State.Mandatory || st.State.Maybe {
					w.st, w.mandSeen = st, st.State.Mandatory
				} else if !w.mandSeen {
					w.st = st
				}
				w.name, w.desc = names[i], desc
				w.insts = nil
				if len(m.Insts) > 0 && desc.InDom != pcp.InDomNull {
					w.insts = map[int32]bool{}
					for _, is := range m.Insts {
						if is.ByNum {
							w.insts[is.Number] = true
							continue
						}
						inst, err := src.LookupInDom(ctx, desc.InDom, is.Name)
						if err != nil {
							fmt.Fprintf(log, "Warning [%s, line %d]\nInstance \"%s\" is not defined for the metric \"%s\"\n",
								file, st.Line, is.Name, names[i])
							continue
						}
						w.insts[inst] = true
					}
				}
			}
		}
	}
	var tasks []*task
	for _, pmid := range order {
		w := byPMID[pmid]
		if !w.st.State.On {
			continue
		}
		var t *task
		for _, c := range tasks {
			if c.state == w.st.State && c.interval == w.st.Interval && c.once == w.st.Once {
				t = c
				break
			}
		}
		if t == nil {
			t = &task{state: w.st.State, interval: w.st.Interval, once: w.st.Once,
				descs: map[pcp.PMID]pcp.Desc{}, names: map[pcp.PMID][]string{},
				insts: map[pcp.PMID]map[int32]bool{}, last: map[pcp.PMID][]int32{}}
			tasks = append(tasks, t)
		}
		t.pmids = append(t.pmids, pmid)
		t.descs[pmid] = w.desc
		t.names[pmid] = append(t.names[pmid], w.name)
		if w.insts != nil {
			t.insts[pmid] = w.insts
		}
	}
	// "log once" tasks come first.
	var out []*task
	for _, t := range tasks {
		if t.once {
			out = append(out, t)
		}
	}
	for _, t := range tasks {
		if !t.once {
			out = append(out, t)
		}
	}
	return out, nil
}

func errText(err error) string {
	var pe pcp.Error
	if errors.As(err, &pe) {
		return pe.Error()
	}
	return err.Error()
}
