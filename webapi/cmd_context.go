package webapi

// context answers /pmapi/context: a new web context (or the named one)
// with its source identifier, host and labels.
func (q *request) context() {
	c, ok := q.use()
	if !ok {
		return
	}
	defer q.release(c)
	r := &q.rep
	r.buf = append(r.buf, `{"context":`...)
	r.buf = append(r.buf, c.origin...)
	r.suffix = r.suffix.push('}')
	if !r.compat {
		if r.clientID != nil {
			r.buf = append(r.buf, `,"client":`...)
			r.buf = append(r.buf, r.clientID...)
		}
		r.buf = append(r.buf, `,"source":"`...)
		r.buf = append(r.buf, c.source...)
		r.buf = append(r.buf, `","hostspec":"`...)
		r.buf = append(r.buf, c.host...)
		r.buf = append(r.buf, `","labels":`...)
		r.buf = append(r.buf, c.labels...)
	}
	r.done(q.w, c.origin, statusOK, nil)
}

// appendHead writes the opening of an answer's object: its context and,
// when the request named one, its client.
func (r *reply) appendHead(origin string) {
	r.buf = append(r.buf, `{"context":`...)
	r.buf = append(r.buf, origin...)
	if r.clientID != nil {
		r.buf = append(r.buf, `,"client":`...)
		r.buf = append(r.buf, r.clientID...)
	}
}
