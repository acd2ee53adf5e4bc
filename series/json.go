package series

import (
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/internal/webid"
)

// The JSON of pmproxy's /series answers, as PCP 6.0.3's pmproxy writes it
// (src/pmproxy/src/series.c): values and names quoted by sdscatrepr,
// timestamps as the stream entry's <ms>.<fraction> text, label values as
// the JSON kept for them.

// repr is sdscatrepr's quoting of s.
func repr(s string) string { return string(webid.AppendRepr(nil, s)) }

// StampText is a value's time as pmseries -t and /series/values give it:
// the stream entry ID with its '-' made a '.'.
func (v Value) StampText() string { return strings.Replace(v.Stamp, "-", ".", 1) }

// MarshalJSON is a /series/values (and /series/query with a window)
// element.
func (v Value) MarshalJSON() ([]byte, error) {
	b := []byte(`{"series":"` + v.Series + `",`)
	if v.Instance != "" || v.Blank {
		b = append(b, `"instance":"`+v.Instance+`",`...)
	}
	b = append(b, `"timestamp":`+v.StampText()+`,"value":`+repr(v.Value)+`}`...)
	return b, nil
}

// MarshalJSON is a /series/metrics element; for a source, /series/sources'.
func (n Name) MarshalJSON() ([]byte, error) {
	return []byte(`{"series":"` + n.Series + `","name":` + repr(n.Name) + `}`), nil
}

// SourceName is a /series/sources element: a source and one context name.
type SourceName Name

// MarshalJSON writes {"source":..,"name":..}.
func (n SourceName) MarshalJSON() ([]byte, error) {
	return []byte(`{"source":"` + n.Series + `","name":` + repr(n.Name) + `}`), nil
}

// MarshalJSON is a /series/instances element.
func (in Instance) MarshalJSON() ([]byte, error) {
	return []byte(`{"series":"` + in.Series + `","source":"` + in.Source + `","instance":"` + in.Instance +
		`","id":` + strconv.Itoa(in.ID) + `,"name":` + repr(in.Name) + `}`), nil
}

// SeriesLabels is a /series/labels element: a series and its labels.
type SeriesLabels struct {
	Series string
	Labels []Label
}

// MarshalJSON writes {"series":..,"labels":{name:value,..}}, the values
// as their JSON text.
func (s SeriesLabels) MarshalJSON() ([]byte, error) {
	b := []byte(`{"series":"` + s.Series + `","labels":{`)
	for i, l := range s.Labels {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, strconv.Quote(l.Name)+":"+l.Value...)
	}
	return append(b, "}}"...), nil
}
