package series

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/series/resp"
)

// Store reads the series of a Redis database in PCP's schema: the answers
// of PCP's pmseries and of pmproxy's /series REST API.
type Store struct {
	c           resp.Client
	valuesLimit int // MaxQueryValues when 0 (tests lower it)
}

// NewStore reads through c.
func NewStore(c resp.Client) *Store { return &Store{c: c} }

// QueryResult is a query's answer: the series matched, in identifier
// order, and with a time window their values. A query with functions or
// arithmetic answers one series, the expression's.
type QueryResult struct {
	Series   []string `json:"series"`
	Values   []Value  `json:"values,omitempty"`
	Windowed bool     `json:"-"` // the query had a time window
	// Warning is an error of evaluation PCP reports before answering
	// the series anyway (an expression without a window).
	Warning error `json:"-"`
}

// Value is one value of a series at a time, as /series/values and
// /series/query give it: series is the metric's series, instance the
// instance's series (empty for a metric without instances).
type Value struct {
	Series    string  `json:"series"`
	Instance  string  `json:"instance,omitempty"`
	Blank     bool    `json:"-"`         // an aggregate over instances: PCP gives an empty instance
	Timestamp float64 `json:"timestamp"` // milliseconds since the epoch
	Stamp     string  `json:"-"`         // the stream entry ID, <ms>-<fraction>
	Value     string  `json:"value"`
}

// Query evaluates an expression of PCP's series query language: a metric
// name (globs allowed) with optional {label filters} and [time window],
// functions of those and arithmetic between them.
func (s *Store) Query(ctx context.Context, expr string) (*QueryResult, error) {
	return s.query(ctx, expr, false)
}

// QueryMetadata is Query without values (pmseries -F): the series a
// query names, or its expression's, whatever its window.
func (s *Store) QueryMetadata(ctx context.Context, expr string) (*QueryResult, error) {
	return s.query(ctx, expr, true)
}

func (s *Store) query(ctx context.Context, expr string, metaOnly bool) (*QueryResult, error) {
	p, err := ParseExpr(expr)
	if err != nil {
		return nil, err
	}
	if metaOnly {
		p.Window = nil
		for _, v := range vectors(p.Root) {
			v.Window = nil
		}
	}
	if p.HasFunction() {
		return s.evalQuery(ctx, p)
	}
	ids, err := s.matchExpr(ctx, p.Root)
	if err != nil {
		return nil, err
	}
	res := &QueryResult{Series: ids, Windowed: p.Window != nil}
	if p.Window != nil {
		// read as libpcp_web reads a query's values (its interval's
		// goal starting at the first entry itself; /series/values
		// starts it a nanosecond later)
		for _, sid := range ids {
			samples, err := s.samplesOf(ctx, sid, p.Window, p.Window)
			if err != nil {
				return nil, err
			}
			for _, smp := range samples {
				for _, v := range smp {
					val := Value{Series: sid, Timestamp: float64(v.ts.Sec)*1e3 + float64(v.ts.Nsec)/1e6, Stamp: v.stamp, Value: v.data}
					if v.inst != sid {
						val.Instance = v.inst
					}
					res.Values = append(res.Values, val)
				}
			}
		}
	}
	return res, nil
}

// smembers reads the set of series at key. set, when given, is what the
// query names (a metric's name): a reply that is no array is then said
// as libpcp_web says it for that set.
func (s *Store) smembers(ctx context.Context, key string, set *querySet) ([]ID, error) {
	r, err := s.c.Do(ctx, "SMEMBERS", key)
	if set != nil && (err != nil || r.Kind != resp.KindArray) {
		return nil, &ReplyError{Level: "Corrupt TSDB",
			Msg: fmt.Sprintf("expected array for %s set %q (type=%s)", set.kind, set.value, replyType(r, err)), Err: replyFailure(err)}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: SMEMBERS %s: %v", ErrRedis, key, err)
	}
	m := r.Strings()
	out := make([]ID, 0, len(m))
	for _, x := range m {
		if len(x) == len(ID{}) {
			var id ID
			copy(id[:], x)
			out = append(out, id)
		}
	}
	return out, nil
}

func hexOf(b string) string {
	var id ID
	copy(id[:], b)
	return id.String()
}

// mapMatching is the strings of a pcp:map:* hash that keep accepts, in
// the hash's scan order.
func (s *Store) mapMatching(ctx context.Context, mapName string, keep func(string) bool) ([]string, error) {
	var out []string
	key := "pcp:map:" + mapName
	cursor := "0"
	// Redis ends a scan in about len/256 rounds; a server that never
	// says the cursor is done is cut off
	const maxRounds = 1 << 20
	for round := 0; ; round++ {
		if round == maxRounds {
			return nil, fmt.Errorf("%w: HSCAN %s: no end after %d rounds", ErrRedis, key, round)
		}
		r, err := s.c.Do(ctx, "HSCAN", key, cursor, "COUNT", "256")
		if err != nil {
			return nil, fmt.Errorf("%w: HSCAN %s: %v", ErrRedis, key, err)
		}
		if len(r.Elems) != 2 {
			return nil, fmt.Errorf("%w: HSCAN %s: unexpected reply", ErrRedis, key)
		}
		cursor, _ = r.Elems[0].Text()
		fv := r.Elems[1].Strings()
		for i := 1; i < len(fv); i += 2 { // the values, not the fields' identifiers
			if keep(fv[i]) {
				out = append(out, fv[i])
			}
		}
		if cursor == "0" || cursor == "" {
			return out, nil
		}
	}
}

// querySet is a set of series a query names by a value: kind is
// libpcp_web's word for what the value is ("metric").
type querySet struct{ kind, value string }

// union is the series of every key's set, united in key order; set, when
// given, is what the one key stands for (smembers).
func (s *Store) union(ctx context.Context, keys []string, set *querySet) ([]ID, error) {
	var out []ID
	for _, k := range keys {
		m, err := s.smembers(ctx, k, set)
		if err != nil {
			return nil, err
		}
		out = unionSets(out, m)
	}
	return out, nil
}

func (s *Store) match(ctx context.Context, q *Query) ([]string, error) {
	var set []ID
	started := false
	and := func(m []ID) {
		if !started {
			set, started = m, true
			return
		}
		set = intersectSets(set, m)
	}
	if q.Name != "" {
		names := []string{q.Name}
		if strings.ContainsAny(q.Name, "*?[") {
			var err error
			names, err = s.mapMatching(ctx, "metric.name", func(n string) bool {
				return Fnmatch(q.Name, n)
			})
			if err != nil {
				return nil, err
			}
		}
		var keys []string
		for _, n := range names {
			keys = append(keys, "pcp:series:metric.name:"+StringID(n).String())
		}
		var set *querySet
		if !strings.ContainsAny(q.Name, "*?[") {
			set = &querySet{"metric", q.Name}
		}
		m, err := s.union(ctx, keys, set)
		if err != nil {
			return nil, err
		}
		and(m)
	}
	for _, f := range q.Filters {
		m, err := s.filter(ctx, f)
		if err != nil {
			return nil, err
		}
		if f.Op == "!=" || f.Op == "!~" {
			if !started {
				continue
			}
			slices.SortFunc(m, cmpID)
			keep := set[:0:0]
			for _, x := range set {
				if !has(m, x) {
					keep = append(keep, x)
				}
			}
			set = keep
			continue
		}
		and(m)
	}
	out := make([]string, 0, len(set))
	for _, x := range set {
		out = append(out, x.String())
	}
	return out, nil
}

// filter is the series a filter names (for != and !~, those it excludes).
func (s *Store) filter(ctx context.Context, f Filter) ([]ID, error) {
	var keep func(string) bool
	switch f.Op {
	case "==", "!=":
	case "~~":
		// fnmatch's glob, as libpcp_web's string_pattern_match: '*'
		// crosses '/' in source paths
		keep = func(v string) bool { return Fnmatch(f.Value, v) }
	case "=~", "!~":
		re, err := regexp.Compile(f.Value)
		if err != nil {
			return nil, fmt.Errorf("invalid regular expression %q: %v", f.Value, err)
		}
		keep = re.MatchString
	case "<", "<=", ">", ">=":
		return s.relational(ctx, f)
	}
	switch f.Name {
	case "instance.name", "inst.name", "instance":
		return s.byName(ctx, "inst.name", "pcp:series:inst.name:", f.Value, keep)
	case "metric.name", "metric":
		return s.byName(ctx, "metric.name", "pcp:series:metric.name:", f.Value, keep)
	case "source.name", "context.name", "source", "context":
		return s.byName(ctx, "context.name", "pcp:series:context.name:", f.Value, keep)
	}
	nid := StringID(strings.TrimPrefix(f.Name, "label.")).String()
	prefix := "pcp:series:label." + nid + ".value:"
	if keep == nil {
		return s.union(ctx, []string{prefix + StringID(f.JSON()).String()}, nil)
	}
	vals, err := s.mapMatching(ctx, "label."+nid+".value", func(v string) bool {
		return keep(strings.Trim(v, `"`))
	})
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, v := range vals {
		keys = append(keys, prefix+StringID(v).String())
	}
	return s.union(ctx, keys, nil)
}

func (s *Store) byName(ctx context.Context, mapName, prefix, value string, keep func(string) bool) ([]ID, error) {
	names := []string{value}
	if keep != nil {
		var err error
		if names, err = s.mapMatching(ctx, mapName, keep); err != nil {
			return nil, err
		}
	}
	var keys []string
	for _, n := range names {
		keys = append(keys, prefix+StringID(n).String())
	}
	return s.union(ctx, keys, nil)
}

// relational is a numeric comparison of a label's values (pmseries(1)'s
// relational operators, which libpcp_web 6.0.3 parses but leaves
// unevaluated, matching nothing): the series whose label value is a
// number in the relation. Names (metric, instance, source) are strings
// and match nothing.
func (s *Store) relational(ctx context.Context, f Filter) ([]ID, error) {
	switch f.Name {
	case "instance.name", "inst.name", "instance", "metric.name", "metric", "source.name", "context.name", "source", "context":
		return nil, nil
	}
	bound, err := strconv.ParseFloat(f.Value, 64)
	if err != nil {
		return nil, nil
	}
	nid := StringID(strings.TrimPrefix(f.Name, "label.")).String()
	vals, err := s.mapMatching(ctx, "label."+nid+".value", func(v string) bool {
		x, err := strconv.ParseFloat(v, 64) // a JSON number, not a quoted string
		if err != nil {
			return false
		}
		switch f.Op {
		case "<":
			return x < bound
		case "<=":
			return x <= bound
		case ">":
			return x > bound
		}
		return x >= bound
	})
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, v := range vals {
		keys = append(keys, "pcp:series:label."+nid+".value:"+StringID(v).String())
	}
	return s.union(ctx, keys, nil)
}
