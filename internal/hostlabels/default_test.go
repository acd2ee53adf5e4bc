package hostlabels

import (
	"errors"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// What PCP 6.0.3's pminfo -l printed for a label-less archive (a copy of
// the QA archive 20041125) whose label names each host; "" where it
// printed no labels line. cmd/pminfo's TestDefaultLabelsAgainstPCP runs
// the same comparison live.
func TestDefault(t *testing.T) {
	cases := []struct {
		host, want string
	}{
		{"plain.example.com", `{"hostname":"plain.example.com"}`},
		{`a\tb`, `{"hostname":"a\tb"}`},
		{`a\b`, `{"hostname":"a\b"}`},
		{"\xc3\xa9.example", "{\"hostname\":\"\xc3\xa9.example\"}"},
		{`a","site":"x`, `{"hostname":"a","site":"x"}`},
		{`a"b`, ""},
		{"a\x01b", ""},
	}
	for _, c := range cases {
		s, err := Default(c.host)
		if c.want == "" {
			if !errors.Is(err, pcp.Error(-int32(syscall.EINVAL))) {
				t.Errorf("Default(%q) = %v, %v; want EINVAL", c.host, s, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Default(%q): %v", c.host, err)
			continue
		}
		got, _ := pcp.MergeLabelSets([]*pcp.LabelSet{s}, nil)
		if got != c.want || s.JSON != c.want || s.Inst != pcp.InstNull {
			t.Errorf("Default(%q) = %s (merged %s, inst %d), PCP's %s", c.host, s.JSON, got, s.Inst, c.want)
		}
		for i, l := range s.Labels {
			if l.Flags != pcp.LabelContext {
				t.Errorf("Default(%q): label %s flags %#x", c.host, s.LabelName(i), l.Flags)
			}
		}
	}
}
