package access

import (
	"slices"
	"testing"
)

// TestUnixPathWarning adds Unix socket patterns that name a path: libpcp
// matches every Unix socket client whatever the path and warns that it
// is ignored; slashes and a final "*" alone are no path. The statement
// still takes effect for the Unix socket (and for "local:" localhost).
func TestUnixPathWarning(t *testing.T) {
	for _, c := range []struct {
		host string
		want []string
	}{
		{"unix:", nil},
		{"unix:*", nil},
		{"unix:///", nil},
		{"unix:/*", nil},
		{"local:", nil},
		{"local://*", nil},
		{"unix:/tmp/x*", []string{`Ignoring the path in host pattern "/tmp/x*"`}},
		{"unix:x", []string{`Ignoring the path in host pattern "x"`}},
		{"local:/a/b", []string{`Ignoring the path in host pattern "/a/b"`}},
		{"unix:a*", []string{`Ignoring the path in host pattern "a*"`}},
	} {
		a := newTest(OpAll)
		err := a.AddHost(c.host, OpAll, OpStore)
		if err != nil {
			t.Errorf("%s: %v", c.host, err)
			continue
		}
		if got := a.Warnings(); !slices.Equal(got, c.want) {
			t.Errorf("%s: warnings %q, want %q", c.host, got, c.want)
		}
		if got := a.Warnings(); got != nil {
			t.Errorf("%s: warnings not forgotten: %q", c.host, got)
		}
		if notes := a.Notes(); len(notes) > 0 {
			t.Errorf("%s: notes %q", c.host, notes)
		}
		if deny, err := a.AdmitHost(unixCl); err != nil || deny != OpStore {
			t.Errorf("%s: unix client denied %b %v, want %b", c.host, deny, err, OpStore)
		}
	}
}
