package webapi

import "github.com/gopcp/gopcp/pcp"

// children answers /pmapi/children: the leaf and non-leaf names below a
// prefix.
func (q *request) children() {
	prefix, ok := q.param("prefix")
	if !ok {
		prefix, _ = q.param("name")
	}
	c, ok := q.use()
	if !ok {
		return
	}
	defer q.release(c)
	kids, err := c.src.ChildrenStatus(q.ctx, prefix)
	if err != nil {
		q.failure(c.origin, statusInval, "child traversal failed - "+pcp.TextOf(err))
		return
	}
	r := &q.rep
	r.suffix = r.suffix.push('}')
	r.appendHead(c.origin)
	r.buf = append(r.buf, `,"name":"`...)
	r.buf = append(r.buf, prefix...)
	r.buf = append(r.buf, `","leaf":[`...)
	for pass, leaf := range [2]bool{true, false} {
		if pass == 1 {
			r.buf = append(r.buf, `],"nonleaf":[`...)
		}
		n := 0
		for _, k := range kids {
			if k.Leaf != leaf {
				continue
			}
			if n > 0 {
				r.buf = append(r.buf, ',')
			}
			r.buf = append(r.buf, '"')
			r.buf = append(r.buf, k.Name...)
			r.buf = append(r.buf, '"')
			n++
		}
	}
	r.buf = append(r.buf, ']')
	r.done(q.w, c.origin, statusOK, nil)
}
