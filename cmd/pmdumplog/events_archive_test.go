package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestEventArchivesLive compares our pmdumplog with PCP's on the QA
// archives of event records, metric by metric: legacy and high-resolution
// arrays, records without an instance domain, raw and windowed dumps,
// both archive versions, and names an archive lacks. Ours runs in-process (under the race detector);
// PCP's runs beside it.
func TestEventArchivesLive(t *testing.T) {
	needQA(t)
	pcp := pcptest.NeedTool(t, "pmdumplog")
	t.Setenv("TZ", goldenTZ)
	type tc struct{ opts, arch string }
	var cases []tc
	for _, name := range []string{"eventrec", "eventrec-old"} {
		arch := filepath.Join(qaDir, name)
		for _, opts := range []string{
			"ARCHIVE sample.event.records",
			"ARCHIVE sample.event.highres_records sample.event.no_indom_records",
			"ARCHIVE sampledso.event",
			"-x ARCHIVE sample.event.records",
			"-S +2 -T +4 ARCHIVE sample.event",
			"-z -r ARCHIVE sampledso.event.records",
			"-m -d ARCHIVE event",
		} {
			cases = append(cases, tc{opts, arch})
		}
	}
	for _, c := range cases {
		args := caseArgs(c.opts, c.arch)
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			_, wantOut, wantErr := runTool(pcp, c.opts, c.arch)
			if len(wantOut)+len(wantErr) == 0 {
				t.Fatal("PCP's pmdumplog printed nothing")
			}
			var out, errb bytes.Buffer
			run(append([]string{"pmdumplog"}, args...), &out, &errb)
			if d := firstDiff("stdout", out.Bytes(), wantOut) + firstDiff("stderr", errb.Bytes(), wantErr); d != "" {
				t.Errorf("differs from PCP's pmdumplog:\n%s", d)
			}
		})
	}
}
