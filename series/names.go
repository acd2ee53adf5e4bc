package series

import (
	"context"
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

// listNames is the strings of a pcp:map:* hash that keep accepts, in the
// order libpcp_web lists them (series_map_keys' HVALS: the hash's own
// order, which for a large hash is not its HSCAN order, the order query
// globs read it in), in one reply as libpcp_web reads it (bounded by
// the client's reply bounds). An element not a string ends the listing
// with a *ReplyError, the names before it returned.
func (s *Store) listNames(ctx context.Context, mapName string, keep func(string) bool) ([]string, error) {
	r, err := s.c.Do(ctx, "HVALS", "pcp:map:"+mapName)
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
