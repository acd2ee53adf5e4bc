package pmcd

import (
	"strings"
	"testing"
)

// TestCheckAgents: the lines this pmcd cannot start are those of a DSO
// no Go agent registers and of a program that is not there; pmcd's own
// agent, a registered DSO, an existing program and a socket agent with
// no program are fine.
func TestCheckAgents(t *testing.T) {
	c, err := ParseConf(strings.NewReader(`pmcd 2 dso pmcd_init /var/lib/pcp/pmdas/pmcd/pmda_pmcd.so
trivial 250 dso trivial_init /var/lib/pcp/pmdas/trivial/pmda_trivial.so
xfs 11 dso xfs_init /var/lib/pcp/pmdas/xfs/pmda_xfs.so
ok 124 pipe binary /bin/sh -c true
gone 125 pipe binary /nonexistent/pmdagone -d 125
sock 126 socket inet 4000
sockgone 127 socket unix /tmp/x.socket /nonexistent/pmdasock
`), "pmcd")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"xfs":      `pmcd config[line 3]: Warning: agent "xfs" (domain 11) cannot be started: no Go agent has the DSO entry point "xfs_init" (/var/lib/pcp/pmdas/xfs/pmda_xfs.so is not loaded)`,
		"gone":     `pmcd config[line 5]: Warning: agent "gone" (domain 125) cannot be started: exec: "/nonexistent/pmdagone": stat /nonexistent/pmdagone: no such file or directory`,
		"sockgone": `pmcd config[line 7]: Warning: agent "sockgone" (domain 127) cannot be started: exec: "/nonexistent/pmdasock": stat /nonexistent/pmdasock: no such file or directory`,
	}
	got := CheckAgents(c)
	if len(got) != len(want) {
		t.Errorf("%d problems, want %d: %v", len(got), len(want), got)
	}
	for _, p := range got {
		if p.String() != want[p.Agent.Name] {
			t.Errorf("got  %s\nwant %s", p, want[p.Agent.Name])
		}
	}
}
