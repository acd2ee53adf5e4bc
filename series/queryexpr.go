package series

import (
	"context"
	"fmt"
)

// exprValues answers /series/values for a series with no values of its
// own: an expression's, which a query with functions named and wrote to
// pcp:expr:series:<sid>. As libpcp_web does, the expression is parsed
// again and evaluated with the request's window: its vectors read from
// their first entry, the window's interval and count choosing among them.
// ok is false when sid names no expression.
func (s *Store) exprValues(ctx context.Context, sid string, w *Window) (vals []Value, ok bool, err error) {
	r, err := s.c.Do(ctx, "HGET", "pcp:expr:series:"+sid, "query")
	if err != nil {
		return nil, false, fmt.Errorf("%w: HGET pcp:expr:series:%s: %v", ErrRedis, sid, err)
	}
	text, ok := r.Text()
	if !ok {
		return nil, false, nil
	}
	vals, err = s.evalText(ctx, text, w)
	return vals, true, err
}

// evalText evaluates an expression's text as written to pcp:expr:series
// with the window w; nothing when it is no expression this package
// wrote.
func (s *Store) evalText(ctx context.Context, text string, w *Window) ([]Value, error) {
	p, err := ParseExpr(text)
	if err != nil {
		return nil, err
	}
	if p.Root == nil || p.Window != nil || !p.HasFunction() {
		return nil, nil // not an expression this package wrote
	}
	for _, v := range vectors(p.Root) {
		v.Window = w
	}
	p.Window = w
	res, err := s.evalQuery(ctx, p)
	if err != nil {
		return nil, err
	}
	return res.Values, nil
}

// vectors are the vectors of an expression.
func vectors(e *Expr) []*Expr {
	if e == nil {
		return nil
	}
	if e.Op == "vector" {
		return []*Expr{e}
	}
	return append(vectors(e.Left), vectors(e.Right)...)
}
