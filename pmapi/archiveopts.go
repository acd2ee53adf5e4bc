package pmapi

import "io"

// WithIgnoreMarkRecords gives an archive context the setting PCP's
// tools take from $PCP_IGNORE_MARK_RECORDS: interpolation (ModeInterp)
// then ignores every <mark> record when value is "", or those between
// records no further apart than value's interval (pmParseInterval's
// form). A value that is not an interval is reported to WithWarnings'
// writer when interpolation starts and ignored, as libpcp does. Without
// the option every <mark> counts.
func WithIgnoreMarkRecords(value string) Option {
	return func(o *options) { o.ignoreMarks = &value }
}

// WithCounterWrap makes interpolation take a counter that went
// backwards between two records as having wrapped at its type's
// maximum, as $PCP_COUNTER_WRAP does for PCP's tools; without it the
// line between the two values is drawn as they are.
func WithCounterWrap(on bool) Option {
	return func(o *options) { o.counterWrap = on }
}

// WithWarnings sends the warnings of a context about its settings to w,
// one Write per warning, in libpcp's words without the program's name;
// without it they are dropped, since a library does not write to its
// program's stderr (internal/cli gives PCP's tools stderr with the
// program's name in front).
func WithWarnings(w io.Writer) Option {
	return func(o *options) { o.warn = w }
}
