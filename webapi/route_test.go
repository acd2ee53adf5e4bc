package webapi

import "testing"

func TestRoute(t *testing.T) {
	for _, c := range []struct {
		path   string
		cmd    command
		ctxid  string
		compat bool
	}{
		{"/pmapi/context", cmdContext, "", false},
		{"/pmapi/12/fetch", cmdFetch, "12", false},
		{"/pmapi/12/_fetch", cmdFetch, "12", true},
		{"/pmapi/metrics", cmdScrape, "", false},
		{"/pmapi/metric", cmdMetric, "", false},
		{"/pmapi/childrenxyz", cmdChildren, "", false},
		{"/pmapi/12x/fetch", cmdNone, "", false},
		{"/pmapi/abc/fetch", cmdNone, "", false},
		{"/metrics", cmdScrape, "", false},
		{"/other", cmdNone, "", false},
	} {
		cmd, id, compat := route(c.path)
		if cmd != c.cmd || id != c.ctxid || compat != c.compat {
			t.Errorf("route(%q) = %v %q %v, want %v %q %v", c.path, cmd, id, compat, c.cmd, c.ctxid, c.compat)
		}
	}
}

func TestParsePMID(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint32
		ok   bool
	}{
		{"29.0.6", 29<<22 | 6, true},
		{"121634822", 121634822, true},
		{"0x10", 16, true},
		{"29.0", 0, false},
		{"abc", 0, false},
	} {
		got, ok := parsePMID(c.in)
		if ok != c.ok || (ok && uint32(got) != c.want) {
			t.Errorf("parsePMID(%q) = %v %v", c.in, got, ok)
		}
	}
}

func FuzzRoute(f *testing.F) {
	for _, s := range []string{"/pmapi/1/_fetch", "/metrics", "/pmapi/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		route(s)
		parsePMID(s)
		parseInDom(s)
	})
}
