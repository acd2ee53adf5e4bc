package series

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/gopcp/gopcp/internal/pcptz"
	"github.com/gopcp/gopcp/internal/timewindow"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// A query's time window, read as libpcp_web's grammar actions read it:
// each keyword's value by PCP's own parser, a second different value for
// a keyword refused, a timezone governing the times read after it.

// timelist reads window keywords up to and including ']'.
func (p *eparser) timelist() error {
	for {
		if err := p.timeexpr(); err != nil {
			return err
		}
		switch p.tok.kind {
		case tComma:
			p.advance()
		case tRSquare:
			p.advance()
			return nil
		default:
			return p.fail()
		}
	}
}

func (p *eparser) timeexpr() error {
	if p.tok.kind == tRange {
		text := p.tok.text
		p.advance()
		return p.setRange(text)
	}
	if p.tok.kind != tKeyword {
		return p.fail()
	}
	key := p.tok.text
	p.advance()
	if err := p.expect(tColon); err != nil {
		return err
	}
	val := p.tok
	okKinds := map[string][]tokKind{
		"interval": {tString, tInteger, tDouble},
		"timezone": {tString},
		"samples":  {tInteger},
		"offset":   {tInteger},
		"align":    {tString, tInteger, tDouble},
		"start":    {tString, tInteger, tDouble},
		"finish":   {tString, tInteger, tDouble},
	}[key]
	ok := false
	for _, k := range okKinds {
		ok = ok || val.kind == k
	}
	if !ok {
		return p.fail()
	}
	p.advance()
	return p.setWindow(key, val.text)
}

// second is libpcp_web's refusal of a second, different value for a
// window keyword (the texts in its order for that keyword).
func (p *eparser) second(key, text, what string, newFirst bool) error {
	old, seen := p.texts[key]
	if seen && old != text {
		a, b := old, text
		if newFirst {
			a, b = text, old
		}
		return &QueryError{Msg: fmt.Sprintf("Invalid second %s requested - \"%s\" vs \"%s\"", what, a, b)}
	}
	p.texts[key] = text
	return nil
}

func (p *eparser) parseTime(text string) (time.Time, error) {
	ts, err := timewindow.ParseTime(text, pcp.Timestamp{}, pcp.Timestamp{Sec: timewindow.MaxTime}, p.loc)
	if err != nil {
		msg := timewindow.Report(err)
		return time.Time{}, &QueryError{Msg: "Cannot parse time with __pmParseHighResTime:\n" + msg}
	}
	if ts.Sec > 1e15 || ts.Sec < -1e15 {
		return time.Unix(1e15, 0), nil
	}
	return time.Unix(ts.Sec, int64(ts.Nsec)), nil
}

func intervalError(what string, err error) error {
	msg := err.Error()
	var ie *pmapi.IntervalError
	if errors.As(err, &ie) {
		msg = ie.Report()
	}
	return &QueryError{Msg: fmt.Sprintf("Cannot parse %s with pmParseHighResInterval:\n%s", what, msg)}
}

func (p *eparser) setWindow(key, text string) error {
	w := &p.win
	switch key {
	case "interval":
		d, err := pmapi.ParseInterval(text)
		if err != nil {
			return intervalError("time delta", err)
		}
		if err := p.second(key, text, "time delta", false); err != nil {
			return err
		}
		w.Interval = d
	case "timezone":
		if err := p.second(key, text, "timezone", false); err != nil {
			return err
		}
		w.Zone = text
		p.loc = pcptz.Load(text)
	case "samples":
		n, _ := strconv.Atoi(text)
		if err := p.second(key, text, "sample count", true); err != nil {
			return err
		}
		w.Samples = n
	case "offset":
		n, _ := strconv.Atoi(text)
		if err := p.second(key, text, "time offset", true); err != nil {
			return err
		}
		w.Offset = n
	case "align", "start", "finish":
		t, err := p.parseTime(text)
		if err != nil {
			return err
		}
		what := map[string]string{"align": "alignment", "start": "start time", "finish": "end time"}[key]
		if err := p.second(key, text, what, false); err != nil {
			return err
		}
		switch key {
		case "align":
			w.Align = t
		case "start":
			w.Start = t
		default:
			w.Finish = t
		}
	}
	return nil
}

func (p *eparser) setRange(text string) error {
	d, err := pmapi.ParseInterval(text)
	if err != nil {
		return intervalError("range", err)
	}
	if err := p.second("range", text, "time range", false); err != nil {
		return err
	}
	p.win.Start = p.now().Add(-d)
	p.win.Range = text
	return nil
}
