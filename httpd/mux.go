package httpd

import (
	"net/url"
	"path"
	"strings"
)

// ServeMux routes requests by path as net/http's ServeMux does for
// patterns without methods, hosts or wildcards: "/a" takes that path
// only, "/a/" every path below it, the longest that matches wins. Like
// it, it redirects (307) an unclean path ("/a/../b", "//b") to its clean
// form and "/a" to "/a/" when only the latter is served, and answers
// 404 for a path nobody serves.
type ServeMux struct {
	routes []route
}

type route struct {
	segs    []string // the pattern's segments, "/a/b/" is [a b]
	subtree bool     // it ends in '/'
	h       Handler
}

// NewServeMux returns an empty mux.
func NewServeMux() *ServeMux { return &ServeMux{} }

// Handle serves pattern (a path beginning with '/') with h. It panics
// on a pattern it cannot take or one already given, as net/http's does;
// patterns are the program's own.
func (m *ServeMux) Handle(pattern string, h Handler) {
	if pattern == "" || pattern[0] != '/' || h == nil || strings.ContainsAny(pattern, "{} \t") {
		panic("httpd: bad pattern " + pattern)
	}
	r := route{subtree: strings.HasSuffix(pattern, "/"), h: h}
	if p := strings.Trim(pattern, "/"); p != "" {
		r.segs = strings.Split(p, "/")
	}
	for _, o := range m.routes {
		if o.subtree == r.subtree && strings.Join(o.segs, "/") == strings.Join(r.segs, "/") {
			panic("httpd: pattern " + pattern + " given twice")
		}
	}
	m.routes = append(m.routes, r)
}

// HandleFunc serves pattern with f.
func (m *ServeMux) HandleFunc(pattern string, f func(ResponseWriter, *Request)) {
	m.Handle(pattern, HandlerFunc(f))
}

// ServeHTTP hands r to the handler its path names.
func (m *ServeMux) ServeHTTP(w ResponseWriter, r *Request) {
	if r.RequestURI == "*" {
		if r.ProtoAtLeast(1, 1) {
			w.Header().Set("Connection", "close")
		}
		w.WriteHeader(StatusBadRequest)
		return
	}
	m.handler(r).ServeHTTP(w, r)
}

// handler is the handler for r: its route's, a redirect's or 404.
func (m *ServeMux) handler(r *Request) Handler {
	escaped := r.URL.EscapedPath()
	p := escaped
	if r.Method != MethodConnect {
		p = cleanPath(p)
	}
	h, exact := m.match(p)
	if !exact && p != "" && !strings.HasSuffix(p, "/") {
		if h2, exact2 := m.match(p + "/"); h2 != nil && exact2 {
			u := &url.URL{Path: cleanPath(r.URL.Path) + "/", RawQuery: r.URL.RawQuery}
			return redirectTo(u.String())
		}
	}
	if r.Method != MethodConnect && p != escaped {
		u := &url.URL{Path: p, RawQuery: r.URL.RawQuery}
		return redirectTo(u.String())
	}
	if h == nil {
		return HandlerFunc(NotFound)
	}
	return h
}

func redirectTo(to string) Handler {
	return HandlerFunc(func(w ResponseWriter, r *Request) { Redirect(w, r, to, StatusTemporaryRedirect) })
}

// match finds the route of an (escaped, clean) path, and whether it
// matched exactly: a path route, or a subtree route matched by its own
// path with nothing below.
func (m *ServeMux) match(p string) (Handler, bool) {
	segs := splitPath(p)
	var best *route
	for i := range m.routes {
		r := &m.routes[i]
		if !r.matches(segs) {
			continue
		}
		if best == nil || r.beats(best) {
			best = r
		}
	}
	if best == nil {
		return nil, false
	}
	if !best.subtree {
		return best.h, true
	}
	return best.h, strings.HasSuffix(p, "/") && len(best.segs)+1 == strings.Count(p, "/")
}

// splitPath is a path's segments, unescaped one by one ("/a/b/" is
// [a b ""]); nil for a path that does not begin with '/' or does not
// unescape.
func splitPath(p string) []string {
	if !strings.HasPrefix(p, "/") {
		return nil
	}
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		u, err := url.PathUnescape(s)
		if err != nil {
			return nil
		}
		segs[i] = u
	}
	return segs
}

func (r *route) matches(segs []string) bool {
	if segs == nil {
		return false
	}
	if r.subtree {
		if len(segs) <= len(r.segs) {
			return false
		}
	} else if len(segs) != len(r.segs) {
		return false
	}
	for i, s := range r.segs {
		if segs[i] != s {
			return false
		}
	}
	return true
}

// beats: a path route is more specific than a subtree one; of two
// subtrees the longer is.
func (r *route) beats(o *route) bool {
	if r.subtree != o.subtree {
		return !r.subtree
	}
	return len(r.segs) > len(o.segs)
}

// cleanPath is p with "." and ".." resolved and slashes doubled made
// single, beginning with '/' and keeping a trailing '/'.
func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if p[len(p)-1] == '/' && np != "/" {
		np += "/"
	}
	return np
}
