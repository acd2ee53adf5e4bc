package main

import (
	"strings"
	"testing"
)

// TestDSONames checks the renaming of command lines for the in-process
// agents: each name once, nothing else touched.
func TestDSONames(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"pmstore sample.controller.mirage 3600000", "pmstore sampledso.controller.mirage 3600000"},
		{"pminfo -dml sample", "pminfo -dml sampledso"},
		{"pminfo -f sample.drift sample.mirage", "pminfo -f sampledso.drift sampledso.mirage"},
		{"pmval -s 2 -t 0.05 -i bin-200,bin-700 sample.bin", "pmval -s 2 -t 0.05 -i bin-200,bin-700 sampledso.bin"},
		{"pminfo samples sampledso.x 29.0.6", "pminfo samples sampledso.x 29.0.6"},
	} {
		if got := strings.Join(dsoNames(strings.Fields(c.in)), " "); got != c.want {
			t.Errorf("dsoNames(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
