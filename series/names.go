package series

import (
	"context"
	"fmt"
	"slices"

	"github.com/gopcp/gopcp/series/resp"
)

// NamesMatching is every string of a pcp:map:* hash ("metric.name",
// "inst.name", "label.name", "context.name") that the fnmatch pattern
// matches (an empty pattern matching none), in the hash's order: what
// pmseries -m, -i, -l and -S list with -g and no series given, and what
// pmproxy's /series/* answer with a match parameter.
func (s *Store) NamesMatching(ctx context.Context, mapName, pattern string) ([]string, error) {
	return s.listNames(ctx, mapName, func(v string) bool { return Fnmatch(pattern, v) })
}

// maxListed bounds the names a listing reads in one reply; a larger map
// is read by HSCAN, a little at a time, in its scan order.
const maxListed = 1 << 20

// listNames is the strings of a pcp:map:* hash that keep accepts, in the
// order libpcp_web lists them (series_map_keys' HVALS: the hash's own
// order, which for a large hash is not its HSCAN order, the order query
// globs read it in). An element not a string ends the listing with a
// *ReplyError, the names before it returned.
func (s *Store) listNames(ctx context.Context, mapName string, keep func(string) bool) ([]string, error) {
	key := "pcp:map:" + mapName
	// libpcp_web lists with HVALS alone: a failure of the HLEN before
	// it is said as a failure of the listing.
	r, err := s.c.Do(ctx, "HLEN", key)
	if err != nil {
		return nil, stringMapError(r, err)
	}
	if n, _ := r.Integer(); n > maxListed {
		return s.mapMatching(ctx, mapName, keep)
	}
	r, err = s.c.Do(ctx, "HVALS", key)
	if err != nil || r.Kind != resp.KindArray {
		return nil, stringMapError(r, err)
	}
	var out []string
	for _, v := range r.Elems {
		if v.Kind != resp.KindBulk {
			// libpcp_web's words; PCP's pmseries crashes after them,
			// the names before listed (ours returns them)
			return out, &ReplyError{Level: "Bad response", Msg: "bad response for string map HVALS (" + replyType(v, nil) + ")"}
		}
		if keep(v.Str) {
			out = append(out, v.Str)
		}
	}
	return out, nil
}

// stringMapError is a listing of a pcp:map:* hash that Redis answered
// with other than an array (v, read with err), as libpcp_web says it.
func stringMapError(v resp.Value, err error) error {
	return &ReplyError{Level: "Bad response", Msg: "expected array from string map HVALS (reply=" + replyType(v, err) + ")",
		Err: replyFailure(err)}
}

// LabelsInOrder is a series' labels (of a metric or of an instance) in the
// order Redis keeps its pcp:labelvalue hash, which is the order
// libpcp_web reports their names in (pmseries -n); a label whose name
// the map lacks is left out, one whose value it lacks has the value
// null, as libpcp_web gives them.
func (s *Store) LabelsInOrder(ctx context.Context, sid string) ([]Label, error) {
	key := "pcp:labelvalue:series:" + sid
	r, err := s.c.Do(ctx, "HKEYS", key)
	if err != nil {
		return nil, fmt.Errorf("%w: HKEYS %s: %v", ErrRedis, key, err)
	}
	nids := r.Strings()
	if len(nids) == 0 {
		return nil, nil
	}
	hmget := func(key string) ([]resp.Value, error) {
		r, err := s.c.Do(ctx, append([]string{"HMGET", key}, nids...)...)
		if err == nil && len(r.Elems) != len(nids) {
			err = fmt.Errorf("unexpected reply")
		}
		if err != nil {
			return nil, fmt.Errorf("%w: HMGET %s: %v", ErrRedis, key, err)
		}
		return r.Elems, nil
	}
	vids, err := hmget(key)
	if err != nil {
		return nil, err
	}
	names, err := hmget("pcp:map:label.name")
	if err != nil {
		return nil, err
	}
	var out []Label
	for i, nid := range nids {
		name, ok := names[i].Text()
		if !ok {
			continue
		}
		val := "null"
		if vid, ok := vids[i].Text(); ok {
			if v, err := s.mapped(ctx, "label."+hexOf(nid)+".value", []string{vid}); err != nil {
				return nil, err
			} else if len(v) > 0 {
				val = v[0]
			}
		}
		out = append(out, Label{name, val})
	}
	return out, nil
}

// SortLabels orders labels by name, as pmseries prints a label set.
func SortLabels(ls []Label) {
	slices.SortStableFunc(ls, func(a, b Label) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
}
