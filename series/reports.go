package series

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/gopcp/gopcp/series/resp"
)

// The metadata reports of series identifiers (pmseries -m, -S, -i, -l;
// pmproxy's /series/metrics, sources, instances, labels) hold libpcp_web's
// conversation with Redis: the pcp:map hash of the names wanted read
// whole first (HGETALL) and the identifiers in each set mapped through
// it, every set asked before any reply is looked at (libpcp_web sends
// them together), then what the replies call for (a set with no members
// is an expression's: its text is asked of pcp:expr:series). Messages
// are libpcp_web's, all of a step returned (ReplyErrors when several).

// reverseMap reads the pcp:map hash mapName whole: identifier → name.
// A reply not an array is said naming the hash as what (libpcp_web
// names a names map pcp:map:context.name whichever it read).
func (s *Store) reverseMap(ctx context.Context, lost *error, mapName, what string) (map[string]string, error) {
	if lost == nil {
		lost = new(error)
	}
	r, err := s.batchDo(ctx, lost, "HGETALL", "pcp:map:"+mapName)
	if err != nil || r.Kind != resp.KindArray {
		return nil, &ReplyError{Level: "Bad response", Err: replyFailure(err),
			Msg: fmt.Sprintf("expected array from HGETALL %s (type=%s)", what, replyType(r, err))}
	}
	m := make(map[string]string, len(r.Elems)/2)
	var ns notes
	for i := 0; i+1 < len(r.Elems); i += 2 {
		id, name := r.Elems[i], r.Elems[i+1]
		switch {
		case name.Kind != resp.KindBulk:
			ns.addf("Bad response", "expected string name for hashmap (type=%s)", replyType(name, nil))
		case id.Kind != resp.KindBulk:
			ns.addf("Bad response", "expected string key for hashmap (type=%s)", replyType(id, nil))
		default:
			m[id.Str] = name.Str
		}
	}
	return m, ns.err()
}

// contextMap is how libpcp_web names a names map it could not read.
const contextMap = "pcp:map:context.name"

// notes are a report's messages, in libpcp_web's order.
type notes []error

func (ns *notes) add(err error) {
	if err != nil {
		*ns = append(*ns, err)
	}
}

func (ns *notes) addf(level, format string, args ...any) {
	*ns = append(*ns, &ReplyError{Level: level, Msg: fmt.Sprintf(format, args...)})
}

// err is the one message, several as ReplyErrors, or nil.
func (ns notes) err() error {
	switch len(ns) {
	case 0:
		return nil
	case 1:
		return ns[0]
	}
	return ReplyErrors(ns)
}

// ReplyErrors are the messages of one step of a report, each said.
type ReplyErrors []error

func (e ReplyErrors) Error() string { return errors.Join(e...).Error() }

// Unwrap gives each message.
func (e ReplyErrors) Unwrap() []error { return e }

// batchDo sends one command of a batch libpcp_web pipelines: once one
// of the batch had no reply (*lost set), the rest, which libpcp_web had
// sent with it, have none either and are not sent. A command not sent
// at all (the connection lost before the batch) is no such loss.
func (s *Store) batchDo(ctx context.Context, lost *error, args ...string) (resp.Value, error) {
	if *lost != nil {
		return resp.Value{}, *lost
	}
	v, err := s.c.Do(ctx, args...)
	var se *SlotsError
	if noReply(err) != "" && !errors.As(err, &se) {
		*lost = err
	}
	return v, err
}

// sets asks SMEMBERS of the set prefix+sid of each series, all before
// looking at a reply, as libpcp_web pipelines them: each series' members
// (none for a series whose reply was not an array, said naming the
// command as what), and the series whose set is empty, an expression's.
func (s *Store) sets(ctx context.Context, prefix, what string, sids []string, ns *notes) (members [][]resp.Value, exprs []string) {
	replies := make([]resp.Value, len(sids))
	errs := make([]error, len(sids))
	var lost error
	for i, sid := range sids {
		replies[i], errs[i] = s.batchDo(ctx, &lost, "SMEMBERS", prefix+sid)
	}
	members = make([][]resp.Value, len(sids))
	for i, sid := range sids {
		r, err := replies[i], errs[i]
		switch {
		case err != nil || r.Kind != resp.KindArray:
			ns.add(&ReplyError{Level: "Bad response", Err: replyFailure(err),
				Msg: fmt.Sprintf("expected array from %s %s (type=%s)", what, sid, replyType(r, err))})
		case len(r.Elems) == 0:
			exprs = append(exprs, sid)
		default:
			members[i] = r.Elems
		}
	}
	return members, exprs
}

// exprQuery is the expression text pcp:expr:series holds for sid: ok
// false when it holds none.
func (s *Store) exprQuery(ctx context.Context, sid string) (text string, ok bool, err error) {
	r, err := s.c.Do(ctx, "HMGET", "pcp:expr:series:"+sid, "query")
	if err != nil || r.Kind != resp.KindArray || len(r.Elems) == 0 {
		return "", false, &ReplyError{Level: "Bad response", Err: replyFailure(err),
			Msg: fmt.Sprintf("expected array of one string element (got %d) from series %s HMGET (type=%s)", len(r.Elems), sid, replyType(r, err))}
	}
	if r.Elems[0].Kind != resp.KindBulk {
		return "", false, nil
	}
	return r.Elems[0].Str, true, nil
}

// mappedSets is the names (through the pcp:map hash mapName) of the
// members of each series' set prefix+sid; a series whose set is empty
// is named by its expression's text, after the others, as libpcp_web
// answers it once its sets' replies are all in.
func (s *Store) mappedSets(ctx context.Context, mapName, prefix string, sids []string) ([]Name, error) {
	if len(sids) == 0 {
		return nil, nil
	}
	m, err := s.reverseMap(ctx, nil, mapName, contextMap)
	if err != nil {
		return nil, err
	}
	var out []Name
	var ns notes
	members, exprs := s.sets(ctx, prefix, "SMEMBERS", sids, &ns)
	for i, sid := range sids {
		for _, e := range members[i] {
			switch name, ok := m[e.Str]; {
			case e.Kind != resp.KindBulk:
				ns.addf("Bad response", "expected string in %s set (type=%s)", sid, replyType(e, nil))
			case !ok:
				ns.addf("Corrupt TSDB", "%s - timeseries string map", sid)
			default:
				out = append(out, Name{sid, name})
			}
		}
	}
	for _, sid := range exprs {
		text, ok, err := s.exprQuery(ctx, sid)
		ns.add(err)
		if ok {
			out = append(out, Name{sid, text})
		}
	}
	return out, ns.err()
}

// instances is the instances of each series (HMGET of each member's
// pcp:inst:series hash), in the order libpcp_web gets them: each
// series' members in their set's order.
func (s *Store) instances(ctx context.Context, sids []string) ([]Instance, error) {
	if len(sids) == 0 {
		return nil, nil
	}
	m, err := s.reverseMap(ctx, nil, "inst.name", contextMap)
	if err != nil {
		return nil, err
	}
	type member struct{ sid, inst string }
	var members []member
	var ns notes
	sets, exprs := s.sets(ctx, "pcp:instances:series:", "series SMEMBERS", sids, &ns)
	for i, sid := range sids {
		for _, e := range sets[i] {
			if e.Kind != resp.KindBulk {
				ns.addf("Bad response", "expected string result for \"series\" of series %s got %s", sid, replyType(e, nil))
			} else if len(e.Str) != len(ID{}) {
				ns.addf("Bad response", "expected sha1 for \"series\" of series %s, got %d bytes", sid, len(e.Str))
			} else {
				members = append(members, member{sid, hexOf(e.Str)})
			}
		}
	}
	var out []Instance
	var lost error
	for _, mb := range members {
		in, err := s.instance(ctx, &lost, m, mb.sid, mb.inst)
		if err != nil {
			ns.add(err)
			continue
		}
		out = append(out, in)
	}
	for _, sid := range exprs {
		ins, err := s.exprInstances(ctx, m, sid)
		ns.add(err)
		out = append(out, ins...)
	}
	return out, ns.err()
}

// exprInstances is the instances of an expression's series: those of
// its latest value, the expression evaluated again as libpcp_web does
// (the evaluation's own commands are this package's, not libpcp_web's).
func (s *Store) exprInstances(ctx context.Context, m map[string]string, sid string) ([]Instance, error) {
	text, ok, err := s.exprQuery(ctx, sid)
	if !ok {
		return nil, err
	}
	vals, err := s.evalText(ctx, text, &Window{Samples: 1})
	if err != nil {
		return nil, err
	}
	var out []Instance
	seen := map[string]bool{}
	for _, v := range vals {
		if v.Instance == "" || seen[v.Instance] {
			continue
		}
		seen[v.Instance] = true
		in, err := s.instance(ctx, new(error), m, sid, v.Instance)
		if err != nil {
			return out, err
		}
		out = append(out, in)
	}
	return out, nil
}

// instance reads an instance's pcp:inst:series hash, its name mapped
// through m, checked as libpcp_web checks it.
func (s *Store) instance(ctx context.Context, lost *error, m map[string]string, sid, inst string) (Instance, error) {
	r, err := s.batchDo(ctx, lost, "HMGET", "pcp:inst:series:"+inst, "inst", "name", "source")
	bad := func(level, format string, args ...any) (Instance, error) {
		return Instance{}, &ReplyError{Level: level, Err: replyFailure(err), Msg: fmt.Sprintf(format, args...)}
	}
	if err != nil || r.Kind != resp.KindArray {
		return bad("Bad response", "expected array from series HMGET %s (type=%s)", inst, replyType(r, err))
	}
	f := r.Elems
	switch {
	case len(f) < 3:
		return bad("Bad response", "bad reply from %s HMGET (%d)", sid, len(f))
	case f[0].Kind != resp.KindBulk:
		return bad("Bad response", "expected string result for inst of series %s (got %s)", sid, replyType(f[0], nil))
	case f[1].Kind != resp.KindBulk:
		return bad("Bad response", "expected string for name of series %s", sid)
	}
	name, ok := m[f[1].Str]
	switch {
	case !ok:
		return bad("Corrupt TSDB", "bad mapping for name of series %s", sid)
	case f[2].Kind != resp.KindBulk:
		return bad("Bad response", "expected string result for \"source\" of series %s got %s", sid, replyType(f[2], nil))
	case len(f[2].Str) != len(ID{}):
		return bad("Bad response", "expected sha1 for \"source\" of series %s, got %d bytes", sid, len(f[2].Str))
	}
	in := Instance{Series: sid, Source: hexOf(f[2].Str), Instance: inst, Name: name}
	in.ID, _ = strconv.Atoi(f[0].Str)
	return in, nil
}

// LabelSets is the labels of each series (of a metric or of an
// instance) in the order Redis keeps its pcp:labelvalue hash, the order
// libpcp_web reports their names in (pmseries -n): the label names map
// read whole, each series' hash (HGETALL), then for each label of each
// the whole map of that label's values, as libpcp_web reads them. A
// label whose name the map lacks is left out, one whose value its map
// lacks has the value null. Once a reply of the step was amiss, the
// labels whose values are read after it have no Value (""): their
// names are known, and each is said as a corrupt map, as libpcp_web
// says it. The labels read are returned with the step's messages.
func (s *Store) LabelSets(ctx context.Context, sids []string) ([][]Label, error) {
	if len(sids) == 0 {
		return nil, nil
	}
	names, err := s.reverseMap(ctx, nil, "label.name", contextMap)
	if err != nil {
		return nil, err
	}
	replies := make([]resp.Value, len(sids))
	errs := make([]error, len(sids))
	var lost error
	for i, sid := range sids {
		replies[i], errs[i] = s.batchDo(ctx, &lost, "HGETALL", "pcp:labelvalue:series:"+sid)
	}
	type pending struct {
		set       int
		name, vid string
		nid       string
	}
	var asks []pending
	var ns notes
	for i, sid := range sids {
		r, err := replies[i], errs[i]
		if err != nil || r.Kind != resp.KindArray {
			ns.add(&ReplyError{Level: "Bad response", Err: replyFailure(err),
				Msg: fmt.Sprintf("expected array from HGETALL pcp:labelvalue:series:%s (type=%s)", sid, replyType(r, err))})
			continue
		}
		if err := labelPairs(r.Elems); err != nil {
			ns.add(err)
			continue
		}
		for j := 0; j+1 < len(r.Elems); j += 2 {
			nid := r.Elems[j].Str
			name, ok := names[nid]
			if !ok {
				ns.addf("Corrupt TSDB", "%s - timeseries label map", sid)
				continue
			}
			asks = append(asks, pending{i, name, r.Elems[j+1].Str, nid})
		}
	}
	out := make([][]Label, len(sids))
	// libpcp_web's step fails as a whole once one reply was amiss: each
	// value read after that is said as a corrupt map, not given
	failed := len(ns) > 0
	for _, a := range asks {
		// libpcp_web names the map by the value's identifier, raw
		values, err := s.reverseMap(ctx, &lost, "label."+hexOf(a.nid)+".value", "pcp:map:label."+a.vid+".value")
		ns.add(err)
		if failed = failed || err != nil; failed {
			ns.addf("Corrupt TSDB", "%s - timeseries name map", sids[a.set])
			out[a.set] = append(out[a.set], Label{Name: a.name})
			continue
		}
		v, ok := values[a.vid]
		if !ok {
			v = "null"
		}
		out[a.set] = append(out[a.set], Label{a.name, v})
	}
	return out, ns.err()
}

// labelPairs checks a pcp:labelvalue hash's HGETALL elements as
// libpcp_web does: pairs of strings.
func labelPairs(elems []resp.Value) error {
	if len(elems)%2 != 0 {
		return &ReplyError{Level: "Bad response", Msg: fmt.Sprintf("expected even number of results from HGETALL (not %d)", len(elems))}
	}
	for _, e := range elems {
		if e.Kind != resp.KindBulk {
			return &ReplyError{Level: "Bad response", Msg: "expected only string results from HGETALL (type=" + replyType(e, nil) + ")"}
		}
	}
	return nil
}
