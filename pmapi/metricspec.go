package pmapi

import "strings"

// MetricSpec is a metric specification as pmParseMetricSpec reads it:
// [host:]metric[[instance,...]], [archive/]metric[...], or for a local
// context @:metric[...].
type MetricSpec struct {
	Kind   Kind   // where the metric comes from
	Source string // the host or archive; "@" for a local context
	Metric string
	Insts  []string // instance names, nil when none were given
}

// MetricSpecError is a specification pmParseMetricSpec refuses; Report
// is libpcp's message, the text with a caret under the fault.
type MetricSpecError struct {
	Spec  string
	Point int
	Msg   string
}

func (e *MetricSpecError) Error() string { return "bad metric specification: " + e.Msg }

// Report is the two lines of libpcp's message, each ending in a newline.
func (e *MetricSpecError) Report() string {
	var b strings.Builder
	b.WriteString(e.Spec + "\n")
	for i := 0; i < e.Point && i < len(e.Spec); i++ {
		if c := e.Spec[i]; c > ' ' && c < 0x7f {
			b.WriteByte(' ')
		} else {
			b.WriteByte(c)
		}
	}
	b.WriteString("^ -- " + e.Msg + "\n")
	return b.String()
}

// ParseMetricSpec reads a metric specification as pmParseMetricSpec
// does; kind and source are the defaults when it names no host or
// archive. Backslashes escape the next character; instance names may be
// double-quoted and are separated by commas or blanks.
func ParseMetricSpec(spec string, kind Kind, source string) (*MetricSpec, error) {
	fail := func(at int, msg string) error { return &MetricSpecError{Spec: spec, Point: at, Msg: msg} }
	scan := len(spec) - len(skipSpace(spec))
	hStart, hEnd, aStart, aEnd := -1, -1, -1, -1

	// the metric ends at '[' or the end; the last ':' or '/' before it
	// ends a host or an archive
	mark := strings.IndexByte(spec[scan:], '[')
	if mark < 0 {
		mark = len(spec) - 1
	} else {
		mark += scan
	}
	for ; mark >= scan; mark-- {
		if spec[mark] != ':' && spec[mark] != '/' {
			continue
		}
		end := mark - 1
		for end >= scan && isSpace(spec[end]) {
			end--
		}
		if end < scan {
			if spec[mark] == ':' {
				return nil, fail(scan, "host name expected")
			}
			return nil, fail(scan, "archive name expected")
		}
		if spec[mark] == ':' {
			hStart, hEnd = scan, end+1
		} else {
			aStart, aEnd = scan, end+1
		}
		scan = mark + 1
		break
	}
	for scan < len(spec) && isSpace(spec[scan]) {
		scan++
	}
	mStart := scan
	for scan < len(spec) && !isSpace(spec[scan]) && spec[scan] != '[' {
		if spec[scan] == ']' || spec[scan] == ',' {
			return nil, fail(scan, "unexpected character in metric name")
		}
		if spec[scan] == '\\' && scan+1 < len(spec) {
			scan++
		}
		scan++
	}
	mEnd := scan
	if mStart == mEnd {
		return nil, fail(mStart, "performance metric name expected")
	}
	for scan < len(spec) && isSpace(spec[scan]) {
		scan++
	}
	iStart, iEnd := -1, -1
	if scan < len(spec) && spec[scan] == '[' {
		scan++
		for scan < len(spec) && isSpace(spec[scan]) {
			scan++
		}
		iStart = scan
		inquote := false
		for {
			if scan >= len(spec) {
				if inquote {
					return nil, fail(scan, "closing \" and ] expected")
				}
				return nil, fail(scan, "closing ] expected")
			}
			switch c := spec[scan]; {
			case c == '\\' && scan+1 < len(spec):
				scan++
			case c == '"':
				inquote = !inquote
			case !inquote && c == ']':
				goto closed
			}
			scan++
		}
	closed:
		iEnd = scan
		scan++
	}
	for scan < len(spec) && isSpace(spec[scan]) {
		scan++
	}
	if scan < len(spec) {
		return nil, fail(scan, "unexpected extra characters")
	}

	ms := &MetricSpec{Kind: kind, Source: source, Metric: unescape(spec[mStart:mEnd])}
	if iStart >= 0 {
		ms.Insts = []string{}
		s := iStart
		for s < iEnd {
			var name strings.Builder
			if spec[s] == '"' {
				s++
				for {
					if s >= iEnd {
						return nil, fail(s, "closing \" expected (pmParseMetricSpec botch?)")
					}
					if spec[s] == '\\' {
						s++
					} else if spec[s] == '"' {
						break
					}
					name.WriteByte(spec[s])
					s++
				}
				s++
			} else {
				for s < iEnd && !isSpace(spec[s]) && spec[s] != ',' {
					if spec[s] == '\\' {
						s++
					}
					if s < len(spec) {
						name.WriteByte(spec[s])
					}
					s++
				}
			}
			ms.Insts = append(ms.Insts, name.String())
			for s < iEnd && (isSpace(spec[s]) || spec[s] == ',') {
				s++
			}
		}
	}
	switch {
	case hStart >= 0:
		ms.Source = unescape(spec[hStart:hEnd])
		ms.Kind = KindHost
		if ms.Source == "@" {
			ms.Kind = KindLocal
		}
	case aStart >= 0:
		ms.Source = unescape(spec[aStart:aEnd])
		ms.Kind = KindArchive
	}
	return ms, nil
}

// unescape drops the backslash before an escaped character, keeping a
// trailing one.
func unescape(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
