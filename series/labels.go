package series

import (
	"strconv"

	"github.com/gopcp/gopcp/pcp"
)

// annotation is one label of a series as the schema records it: its name,
// its JSON value text and its flags.
type annotation struct {
	name, value string
	flags       uint8

	// kept by the loader once the label is mapped: the name's and
	// value's identifiers and the key of the set of series having it
	nid, vid ID
	set      string
}

// annotations lists the labels of sets as libpcp_web's load records them:
// every label of every set in order of precedence, the first of a name
// kept (its merge is driven through a filter that keeps nothing, so a later
// level never replaces an earlier one here).
func annotations(sets []*pcp.LabelSet) []annotation {
	var out []annotation
	seen := map[string]bool{}
	for _, s := range sets {
		if s == nil || s.NLabels < 0 {
			continue
		}
		for i, l := range s.Labels {
			n := s.LabelName(i)
			if seen[n] {
				continue
			}
			seen[n] = true
			v := s.LabelValue(i)
			if l.ValueLen == 0 {
				v = "null"
			}
			out = append(out, annotation{name: n, value: v, flags: l.Flags})
		}
	}
	return out
}

// location is a source's latitude and longitude from its context labels,
// zero when absent.
func location(s *pcp.LabelSet) (lat, long float64) {
	if s == nil {
		return
	}
	for i := range s.Labels {
		switch s.LabelName(i) {
		case "latitude":
			lat = strtod(s.LabelValue(i))
		case "longitude":
			long = strtod(s.LabelValue(i))
		}
	}
	return
}

// strtod reads the longest leading number, as C's strtod (0 for none).
func strtod(s string) float64 {
	for n := len(s); n > 0; n-- {
		if f, err := strconv.ParseFloat(s[:n], 64); err == nil {
			return f
		}
	}
	return 0
}
