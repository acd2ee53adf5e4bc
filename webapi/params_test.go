package webapi

import (
	"net/url"
	"strings"
	"testing"
)

// sameAsParseQuery fails unless parseParams reads query as
// url.ParseQuery does: an error for the same queries, and for every
// name url.ParseQuery found, the same first value.
func sameAsParseQuery(t *testing.T, query string) {
	t.Helper()
	want, werr := url.ParseQuery(query)
	got, gerr := parseParams(query)
	defer got.release()
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%.60q: error %v, url.ParseQuery's %v", query, gerr, werr)
	}
	seen := map[string]bool{}
	for i := 0; i < len(got.kv); i += 2 {
		if _, ok := want[got.kv[i]]; !ok {
			t.Fatalf("%.60q: name %q, which url.ParseQuery does not have", query, got.kv[i])
		}
		seen[got.kv[i]] = true
	}
	if len(seen) != len(want) {
		t.Fatalf("%.60q: %d names, url.ParseQuery's %d", query, len(seen), len(want))
	}
	for name, vs := range want {
		if v, ok := got.get(name); !ok || v != vs[0] {
			t.Fatalf("%.60q: %q = %q %v, url.ParseQuery's %q", query, name, v, ok, vs[0])
		}
	}
}

func TestParamsAsParseQuery(t *testing.T) {
	for _, q := range []string{
		"",
		"names=sample.long.one,sample.bin",
		"hostspec=localhost:44321&polltimeout=3600",
		"a=1&a=2&b=3",
		"a&b=&=c&&",
		"a=1;b=2",
		"a=1&b=2;c&d=4",
		"name=%41%42&x=%zz&y=1",
		"%zz=1&y=2",
		"sp+ace=a+b%20c",
		"hostspec=pcp%3A%2F%2Fhost%3A44321%3Fusername%3Dme",
		"expr=a%2Bb&expr=c",
		"=",
		"&",
		strings.Repeat("a=1&", maxParams-1) + "a=1",
		strings.Repeat("a=1&", maxParams) + "a=1",
	} {
		sameAsParseQuery(t, q)
	}
}

func TestParamsSetDefault(t *testing.T) {
	p, err := parseParams("value=1&expr=x")
	if err != nil {
		t.Fatal(err)
	}
	defer p.release()
	p.setDefault("value", "body")
	p.setDefault("name", "body")
	if v, _ := p.get("value"); v != "1" {
		t.Errorf("value = %q, want the query's 1", v)
	}
	if v, _ := p.get("name"); v != "body" {
		t.Errorf("name = %q, want body", v)
	}
}

func FuzzParams(f *testing.F) {
	for _, q := range []string{"names=a,b", "a=1;b", "%zz", "a=1&a=2", "x=%41+"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if len(q) > 1<<16 {
			return
		}
		sameAsParseQuery(t, q)
	})
}
