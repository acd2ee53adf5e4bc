package series

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// MaxSamples bounds the entries read from one stream for one query.
const MaxSamples = 1 << 20

func stamp(t time.Time) string {
	return streamID(pcp.Timestamp{Sec: t.Unix(), Nsec: int32(t.Nanosecond())})
}

// streamWindow reads a series' stream entries: with newest, the newest
// w.Samples (at most MaxSamples) newest first; else oldest first from
// w.Start to w.Finish (each open when zero), at most MaxSamples.
func (s *Store) streamWindow(ctx context.Context, sid string, w *Window, newest bool) ([]entry, error) {
	key := "pcp:values:series:" + sid
	var msgs []entry
	var err error
	if newest {
		msgs, err = s.xrange(ctx, "XREVRANGE", key, "+", "-", int64(min(w.Samples, MaxSamples)))
	} else {
		start, end := "0-0", "+"
		if !w.Start.IsZero() {
			start = stamp(w.Start)
		}
		if !w.Finish.IsZero() {
			end = stamp(w.Finish)
		}
		msgs, err = s.xrange(ctx, "XRANGE", key, start, end, MaxSamples)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: reading %s: %v", ErrRedis, key, err)
	}
	return msgs, nil
}

// values reads a series' stream in a window as libpcp_web does: with only
// a count, the newest entries first; else oldest first from start to
// finish, thinned to about one entry per interval by its rule (an entry is
// kept when the next one lies past the goal, the goal then moving on by
// the interval, or to the next entry when it lags by more than two
// intervals' whole seconds; the last entry always kept), then the count.
func (s *Store) values(ctx context.Context, sid string, w *Window) ([]Value, error) {
	msgs, err := s.streamWindow(ctx, sid, w, w.Samples > 0 && w.Start.IsZero() && w.Finish.IsZero() && w.Interval == 0)
	if err != nil {
		return nil, err
	}
	times := make([]int64, len(msgs)) // nanoseconds
	for i, m := range msgs {
		t := parseStreamID(m.ID)
		times[i] = t.Sec*1e9 + int64(t.Nsec)
	}
	var out []Value
	var goal int64
	wholeSecs := float64(w.Interval / time.Second)
	taken := 0
	for n, m := range msgs {
		if w.Interval > 0 {
			if n == 0 {
				goal = times[0]
				if startSet(w.Start) {
					goal = w.Start.UnixNano()
				}
				goal++
			}
			if n+1 < len(msgs) {
				next := times[n+1]
				gd := float64(next-goal) / 1e9
				if gd <= 0 {
					continue
				}
				if gd > 2*wholeSecs {
					goal = next
				}
				goal += int64(w.Interval)
			}
		}
		if w.Samples > 0 {
			if taken >= w.Samples {
				break
			}
			taken++
		}
		ms := float64(times[n]) / 1e6
		for _, f := range m.fields {
			v := Value{Series: sid, Timestamp: ms, Stamp: m.ID, Value: f.value}
			switch {
			case f.name == "":
			case len(f.name) == len(ID{}):
				v.Instance = hexOf(f.name)
			default:
				continue // "-1": the error a fetch gave
			}
			out = append(out, v)
		}
	}
	return out, nil
}

type field struct{ name, value string }

// entry is a stream entry with its fields in stream order, the order
// pmseries prints.
type entry struct {
	ID     string
	fields []field
}

func (s *Store) xrange(ctx context.Context, cmd, key, from, to string, n int64) ([]entry, error) {
	r, err := s.c.Do(ctx, cmd, key, from, to, "COUNT", strconv.FormatInt(n, 10))
	if err != nil {
		return nil, err
	}
	out := make([]entry, 0, len(r.Elems))
	for _, x := range r.Elems {
		if len(x.Elems) != 2 {
			return nil, fmt.Errorf("%s %s: unexpected reply", cmd, key)
		}
		id, _ := x.Elems[0].Text()
		fv := x.Elems[1].Strings()
		en := entry{ID: id, fields: make([]field, 0, len(fv)/2)}
		for i := 0; i+1 < len(fv); i += 2 {
			en.fields = append(en.fields, field{fv[i], fv[i+1]})
		}
		out = append(out, en)
	}
	return out, nil
}

// Values reads the values of series in a window, as /series/values
// answers (start, finish and interval in its parameters).
func (s *Store) Values(ctx context.Context, sids []string, w *Window) ([]Value, error) {
	if w == nil {
		w = &Window{}
	}
	var out []Value
	for _, sid := range sids {
		if _, ok := ParseID(sid); !ok {
			return nil, fmt.Errorf("invalid series identifier %q", sid)
		}
		vs, err := s.values(ctx, sid, w)
		if err != nil {
			return nil, err
		}
		if len(vs) == 0 {
			ev, ok, err := s.exprValues(ctx, sid, w)
			if err != nil {
				return nil, err
			}
			if ok {
				vs = ev
			}
		}
		out = append(out, vs...)
	}
	return out, nil
}
