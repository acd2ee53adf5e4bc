package cli

import (
	"bytes"
	"errors"
	"os/exec"
	"testing"

	"github.com/gopcp/gopcp/internal/getopt"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestDebugSpecsAgainstPCP gives -D specifications (names in any case,
// "all", old bit masks, lists, empty items, junk after a number) to
// PCP's pmval and to the parser, with -V so that a good one exits at
// once: the same refusal (message and usage) or acceptance.
func TestDebugSpecsAgainstPCP(t *testing.T) {
	pmval := pcptest.NeedTool(t, "pmval")
	specs := []string{"", "pdu", "PDU", "Fetch,Log", "all", "ALL", "al", "0", "-1", "3,appl9",
		"16,tls,", ",pdu", "pdu,,log", "0x10", "1x", "+5", " 7", "nosuch", "pdu,nosuch",
		"appl10", "dev2,pmlc,desperate", "all,pdu", "pdu ", "99999999999"}
	for _, name := range getopt.DebugNames() {
		specs = append(specs, name)
	}
	for _, spec := range specs {
		args := []string{"-D", spec, "-V"}
		cmd := exec.Command(pmval, args...)
		cmd.Env = cleanEnv(t)
		var stderr, stdout bytes.Buffer
		cmd.Stderr, cmd.Stdout = &stderr, &stdout
		code := 0
		var ee *exec.ExitError
		if err := cmd.Run(); errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		c := pmvalLike()
		p := ParseEnv(c, append([]string{"pmval"}, args...), cleanEnv(t))
		_, status := p.Done()
		if status != code {
			t.Errorf("-D %q: status %d, PCP's %d (%s)", spec, status, code, stderr.String())
			continue
		}
		if code != 0 {
			if got := p.Report(c); got != stderr.String() {
				t.Errorf("-D %q:\n%s\nPCP's pmval:\n%s", spec, got, stderr.String())
			}
		}
		// PCP_DEBUG takes the same specifications
		env := append(cleanEnv(t), "PCP_DEBUG="+spec)
		p = ParseEnv(c, []string{"pmval", "-V"}, env)
		if _, envStatus := p.Done(); envStatus != code {
			t.Errorf("PCP_DEBUG=%q: status %d, -D's %d", spec, envStatus, code)
		}
	}
}
