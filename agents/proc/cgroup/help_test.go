package cgroup

import (
	"strings"
	"testing"
)

// TestHelp: every metric has its own one-line help and a full help.
func TestHelp(t *testing.T) {
	s := New(Options{})
	seen := map[string]string{}
	for _, m := range s.Metrics() {
		if m.OneLine == "" || m.Help == "" {
			t.Errorf("%s: no help", m.Name)
			continue
		}
		if strings.Contains(m.Help, ": .") || strings.HasPrefix(m.Help, ",") || strings.Contains(m.Help, "counting ,") {
			t.Errorf("%s: help with a part missing: %q", m.Name, m.Help)
		}
		if other, ok := seen[m.OneLine]; ok {
			t.Errorf("%s and %s share the one-line help %q", other, m.Name, m.OneLine)
		}
		seen[m.OneLine] = m.Name
	}
	for _, d := range s.InDoms() {
		if d.OneLine == "" {
			t.Errorf("instance domain %v: no help", d.InDom)
		}
	}
}
