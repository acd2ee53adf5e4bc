package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
)

// TestSearchSetupLikePCP: [pmsearch] enabled in the configuration has
// libpcp_web ask for its text index (FT.CREATE) at the end of the
// set-up (the commands compared are the set-up's and the first after
// it); whatever the answer (Debian's Redis has no search module and
// refuses the command), PCP's pmseries says nothing of it. PCP's and
// ours ask the same on the same connections, print the same and exit
// alike, for several settings and answers.
func TestSearchSetupLikePCP(t *testing.T) {
	redistest.Need(t)
	bin := pcptest.NeedTool(t, "pmseries")
	srv := redistest.Start(t)
	for _, c := range []struct {
		enabled string
		reply   string // FT.CREATE's scripted reply; "" for Redis's own
		args    string
	}{
		{"true", "", "kernel.all.load"},
		{"true", "", "-m"},
		{"true", "", "-l -i"},
		{"true", "+OK\r\n", "kernel.all.load"},
		{"true", "-Index already exists. Drop it first!\r\n", "-m"},
		{"true", ":1\r\n", "-m"},
		{"true", "$-1\r\n", "-m"},
		{"false", "", "-m"},
		{"TRUE", "", "-m"},
		{"yes", "", "-m"},
		{"true x", "", "-m"},
	} {
		name := c.enabled + " " + strings.TrimSpace(c.reply) + " " + c.args
		conf := filepath.Join(t.TempDir(), "pmseries.conf")
		if err := writeFile(conf, "[pmseries]\nenabled = true\n[pmsearch]\nenabled = "+c.enabled+"\n"); err != nil {
			t.Fatal(err)
		}
		script := []scripted{{"GET pcp:version:schema", "$-1\r\n"}, {"SET pcp:version:schema", "+OK\r\n"}}
		if c.reply != "" {
			script = append(script, scripted{"FT.CREATE", c.reply})
		}
		pcps, ours := throughScript(t, bin, srv.Addr(), conf, script, strings.Fields(c.args)...)
		if got, want := ours.outcome(), pcps.outcome(); got != want {
			t.Errorf("%s: ours:\n%s\nPCP's:\n%s", name, got, want)
		}
		if w, g := strings.Join(setupTalk(pcps.talk), "\n"), strings.Join(setupTalk(ours.talk), "\n"); g != w {
			t.Errorf("%s: ours asked\n%s\nPCP's\n%s", name, g, w)
		}
	}
}
