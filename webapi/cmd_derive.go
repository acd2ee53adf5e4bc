package webapi

import (
	"strconv"
	"strings"
)

// derive answers /pmapi/derive: a derived metric for this context, by
// name and expression, or several in the configuration file form
// (name = expression lines) when only expr is given.
func (q *request) derive() {
	name, hasName := q.param("name")
	expr, hasExpr := q.param("expr")
	c, ok := q.use()
	if !ok {
		return
	}
	defer q.release(c)
	switch {
	case hasExpr && !hasName:
		if msg := q.deriveConfig(c, expr); msg != "" {
			q.failure(c.origin, statusInval, msg)
			return
		}
	case hasExpr && hasName:
		if msg, _ := c.src.AddDerivedMetric(q.ctx, name, expr); msg != "" {
			q.failure(c.origin, statusInval, msg)
			return
		}
	default:
		q.failure(c.origin, statusInval, "invalid derive parameters")
		return
	}
	q.rep.done(q.w, c.origin, statusOK, nil)
}

// deriveConfig reads definitions as webgroup_derived_metrics does: '#'
// comments, "name = expression" ended by a newline, '&' or ';'; a
// definition the text ends inside is incomplete.
func (q *request) deriveConfig(c *webContext, config string) string {
	marker := func(b byte) bool { return b == '\r' || b == '\n' || b == '&' || b == ';' }
	space := func(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f' }
	line := 0
	p, end := 0, len(config)
	for p < end {
		if space(config[p]) {
			if config[p] == '\n' {
				line++
			}
			p++
			continue
		}
		if config[p] == '#' {
			for p < end && !marker(config[p]) {
				p++
			}
			if p == end {
				break
			}
			line++
			p++
			continue
		}
		start := p
		for p < end && !space(config[p]) && config[p] != '=' {
			p++
		}
		name := config[start:p]
		if p == end {
			return "failed to parse derived metric \"" + name + "\" on line " + strconv.Itoa(line) + " - incomplete expression\n"
		}
		p++
		for p < end && (space(config[p]) && !marker(config[p]) || config[p] == '=') {
			p++
		}
		estart := p
		for p < end && !marker(config[p]) {
			p++
		}
		if p == end {
			return "failed to parse derived metric \"" + name + "\" on line " + strconv.Itoa(line) + " - incomplete expression\n"
		}
		expr := config[estart:p]
		if msg, _ := c.src.AddDerivedMetric(q.ctx, name, expr); msg != "" {
			return "failed to create derived metric \"" + name + "\" on line " + strconv.Itoa(line) +
				" from: " + expr + "\n" + strings.TrimSuffix(msg, "\n") + "\n"
		}
		line++
		p++
	}
	return ""
}
