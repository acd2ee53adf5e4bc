package series

import (
	"cmp"
	"context"
	"crypto/sha1"
	"fmt"
	"slices"
	"strings"

	"github.com/gopcp/gopcp/series/resp"
)

// Desc is a series' descriptor as /series/descs gives it.
type Desc struct {
	Series    string `json:"series"`
	Source    string `json:"source"`
	PMID      string `json:"pmid"`
	InDom     string `json:"indom"`
	Semantics string `json:"semantics"`
	Type      string `json:"type"`
	Units     string `json:"units"`
}

// Descs reads the descriptors of series. A series without one (an
// instance's, a source's, an unknown identifier) gets libpcp_web's
// descriptor of "unknown" words and a PMID of PM_ID_NULL. A reply other
// than PCP's schema gives is a *ReplyError in libpcp_web's words.
func (s *Store) Descs(ctx context.Context, sids []string) ([]Desc, error) {
	var out []Desc
	for _, sid := range sids {
		key := "pcp:desc:series:" + sid
		r, err := s.c.Do(ctx, "HMGET", key, "indom", "pmid", "semantics", "source", "type", "units")
		if err != nil || r.Kind != resp.KindArray {
			return nil, &ReplyError{Level: "Bad response", Err: replyFailure(err),
				Msg: fmt.Sprintf("expected array type from series %s HMGET (type=%s)", sid, replyType(r, err))}
		}
		d, err := descOf(sid, r.Elems)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// descOf is a series' descriptor from HMGET's fields (indom, pmid,
// semantics, source, type, units), checked as libpcp_web checks them:
// six at least, each a string, the source a SHA-1 hash; the first nil is
// no descriptor.
func descOf(sid string, f []resp.Value) (Desc, error) {
	bad := func(format string, args ...any) (Desc, error) {
		return Desc{}, &ReplyError{Level: "Bad response", Msg: fmt.Sprintf(format, args...)}
	}
	if len(f) < 6 {
		return bad("bad reply from %s HMGET (%d)", sid, len(f))
	}
	if f[0].IsNil() {
		return Desc{Series: sid, Source: "unknown", PMID: "PM_ID_NULL", InDom: "unknown",
			Semantics: "unknown", Type: "unknown", Units: "unknown"}, nil
	}
	for i, name := range []string{"indom", "pmid", "semantics", "source", "type", "units"} {
		switch {
		case f[i].Kind == resp.KindBulk && (i != 3 || len(f[i].Str) == sha1.Size):
		case i != 3:
			return bad("expected string result for %s of series %s (got %s)", name, sid, replyType(f[i], nil))
		case f[i].Kind != resp.KindBulk:
			return bad("expected string result for \"%s\" of series %s got %s", name, sid, replyType(f[i], nil))
		default:
			return bad("expected sha1 for \"%s\" of series %s, got %d bytes", name, sid, len(f[i].Str))
		}
	}
	return Desc{Series: sid, Source: hexOf(f[3].Str), PMID: f[1].Str,
		InDom: f[0].Str, Semantics: f[2].Str, Type: f[4].Str, Units: f[5].Str}, nil
}

// Name is a series and one name of it (a metric, or a source's context).
type Name struct {
	Series string `json:"series"`
	Name   string `json:"name"`
}

// mapped is the names of ids in the pcp:map hash mapName (HMGET), as
// an expression's evaluation looks up its operands' metric names.
func (s *Store) mapped(ctx context.Context, mapName string, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := make([]string, 0, 2+len(ids))
	args = append(append(args, "HMGET", "pcp:map:"+mapName), ids...)
	r, err := s.c.Do(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRedis, err)
	}
	var out []string
	for _, v := range r.Elems {
		if str, ok := v.Text(); ok {
			out = append(out, str)
		}
	}
	return out, nil
}

func (s *Store) members(ctx context.Context, key string) ([]string, error) {
	r, err := s.c.Do(ctx, "SMEMBERS", key)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRedis, err)
	}
	return r.Strings(), nil
}

// Metrics reads the metric names of series, per series in the order
// Redis gives its set's members, as libpcp_web reports them: an
// expression's series (no names) named by its text, after the others.
func (s *Store) Metrics(ctx context.Context, sids []string) ([]Name, error) {
	return s.mappedSets(ctx, "metric.name", "pcp:metric.name:series:", sids)
}

// Sources reads the context names (host names and archive paths) of
// sources, per source in the order Redis gives its set's members, as
// libpcp_web reports them.
func (s *Store) Sources(ctx context.Context, sources []string) ([]Name, error) {
	return s.mappedSets(ctx, "context.name", "pcp:context.name:source:", sources)
}

// Instance is an instance of a series as /series/instances gives it.
type Instance struct {
	Series   string `json:"series"`
	Source   string `json:"source"`
	Instance string `json:"instance"` // the instance's own series
	ID       int    `json:"id"`
	Name     string `json:"name"`
}

// Instances reads the instances of series, by instance number per
// series (then name, as pmseries sorts them).
func (s *Store) Instances(ctx context.Context, sids []string) ([]Instance, error) {
	out, err := s.instances(ctx, sids)
	// each series' instances come together, in the order of sids
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && out[j].Series == out[i].Series {
			j++
		}
		slices.SortStableFunc(out[i:j], func(a, b Instance) int {
			return cmp.Or(cmp.Compare(a.ID, b.ID), strings.Compare(a.Name, b.Name))
		})
		i = j
	}
	return out, err
}

// Label is one label of a series: its name and JSON value ("" when
// the value could not be read, see LabelSets).
type Label struct {
	Name  string
	Value string
}

// SeriesLabelsOf reads the labels of several series, as /series/labels
// answers (series without labels left out), asked together as
// libpcp_web asks them.
func (s *Store) SeriesLabelsOf(ctx context.Context, sids []string) ([]SeriesLabels, error) {
	sets, err := s.LabelSets(ctx, sids)
	if err != nil {
		return nil, err
	}
	var out []SeriesLabels
	for i, ls := range sets {
		if len(ls) > 0 {
			SortLabels(ls)
			out = append(out, SeriesLabels{sids[i], ls})
		}
	}
	return out, nil
}

// SourceNames reads the context names of sources as /series/sources
// answers.
func (s *Store) SourceNames(ctx context.Context, sources []string) ([]SourceName, error) {
	ns, err := s.Sources(ctx, sources)
	if err != nil {
		return nil, err
	}
	out := make([]SourceName, len(ns))
	for i, n := range ns {
		out[i] = SourceName(n)
	}
	return out, nil
}

// AllNames is every string of a pcp:map:* hash ("metric.name",
// "inst.name", "label.name", "context.name"), in the hash's order: what
// pmseries -m, -i, -l and -S list with no series given.
func (s *Store) AllNames(ctx context.Context, mapName string) ([]string, error) {
	return s.listNames(ctx, mapName, func(string) bool { return true })
}

// LabelValues is every value a label name has, as pmseries -v lists them.
func (s *Store) LabelValues(ctx context.Context, name string) ([]string, error) {
	return s.AllNames(ctx, "label."+StringID(name).String()+".value")
}
