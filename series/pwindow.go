package series

import (
	"fmt"
	"strings"
	"time"
)

// WindowError is a time window PCP's pmSeriesWindow refuses: the
// parser's message and the error number it returns with it (EINVAL for
// a syntax error or a second value, EPERM for a time or interval PCP's
// parsers refuse).
type WindowError struct {
	*QueryError
	Errno string // strerror's text
}

func (e *WindowError) Unwrap() error { return e.QueryError }

// ParseWindow reads a time window alone ("[samples:2,interval:1]"), as
// pmseries -w and libpcp_web's pmSeriesWindow read it: with the query
// grammar, an expression in it refused, and its keywords then read as
// pmproxy's /series/values reads its parameters (zone last, governing
// none of the times); no keyword at all is the latest value.
func ParseWindow(text string) (*Window, error) {
	if len(text) > MaxQueryLen {
		return nil, &WindowError{&QueryError{Msg: fmt.Sprintf("window too long (%d bytes, at most %d)", len(text), MaxQueryLen)}, "Invalid argument"}
	}
	p := &eparser{q: text, lx: &lexer{s: text}, now: time.Now, loc: time.Local, texts: map[string]string{}}
	p.advance()
	root, err := p.query()
	if err != nil {
		var qe *QueryError
		if !asQueryError(err, &qe) {
			return nil, err
		}
		errno := "Invalid argument"
		if strings.HasPrefix(qe.Msg, "Cannot parse ") {
			// pmParseHighResInterval's and __pmParseHighResTime's -1
			errno = "Operation not permitted"
		}
		return nil, &WindowError{qe, errno}
	}
	if root != nil {
		return nil, &WindowError{&QueryError{Msg: "Invalid time window specification"}, "Invalid argument"}
	}
	params := map[string]string{}
	for key, name := range map[string]string{"samples": "samples", "interval": "interval", "start": "start",
		"finish": "finish", "align": "align", "offset": "offset", "range": "range", "timezone": "zone"} {
		if v, ok := p.texts[key]; ok {
			params[name] = v
		}
	}
	return ValuesWindow(func(names ...string) (string, bool) {
		for _, n := range names {
			if v, ok := params[n]; ok {
				return v, true
			}
		}
		return "", false
	})
}

func asQueryError(err error, qe **QueryError) bool {
	e, ok := err.(*QueryError)
	if ok {
		*qe = e
	}
	return ok
}
