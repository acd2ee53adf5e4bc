package cli

import (
	"bytes"
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestDebugNamesAgainstPCP checks the -D option names against the list
// PCP's pmdbg -l prints.
func TestDebugNamesAgainstPCP(t *testing.T) {
	pmdbg := pcptest.NeedTool(t, "pmdbg")
	out, err := exec.Command(pmdbg, "-l").Output()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); i > 1 && len(f) > 0 {
			names = append(names, f[0])
		}
	}
	if !reflect.DeepEqual(names, debugNames) {
		t.Errorf("pmdbg -l lists %q\nwe know %q", names, debugNames)
	}
}

// TestDebugSpecsAgainstPCP gives -D specifications (names in any case,
// "all", old bit masks, lists, empty items, junk after a number) to
// PCP's pmval and to the parser, with -V so that a good one exits at
// once: the same refusal (message and usage) or acceptance.
func TestDebugSpecsAgainstPCP(t *testing.T) {
	pmval := pcptest.NeedTool(t, "pmval")
	specs := []string{"", "pdu", "PDU", "Fetch,Log", "all", "ALL", "al", "0", "-1", "3,appl9",
		"16,tls,", ",pdu", "pdu,,log", "0x10", "1x", "+5", " 7", "nosuch", "pdu,nosuch",
		"appl10", "dev2,pmlc,desperate", "all,pdu", "pdu ", "99999999999"}
	for _, name := range debugNames {
		specs = append(specs, name)
	}
	for _, spec := range specs {
		args := []string{"-D", spec, "-V"}
		cmd := exec.Command(pmval, args...)
		cmd.Env = cleanEnv()
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
		p := ParseEnv(c, append([]string{"pmval"}, args...), cleanEnv())
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
		env := append(cleanEnv(), "PCP_DEBUG="+spec)
		p = ParseEnv(c, []string{"pmval", "-V"}, env)
		if _, envStatus := p.Done(); envStatus != code {
			t.Errorf("PCP_DEBUG=%q: status %d, -D's %d", spec, envStatus, code)
		}
	}
}

// TestDebugFlagAgainstPCP checks the wording of the tools that parse -D
// themselves, against PCP's pmlogger.
func TestDebugFlagAgainstPCP(t *testing.T) {
	pmlogger := pcptest.NeedTool(t, "pmlogger")
	cmd := exec.Command(pmlogger, "-D", "pdu,nosuch", "-V")
	cmd.Env = cleanEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run()
	want, _, _ := strings.Cut(stderr.String(), "\n")
	c := &Command{Name: "pmlogger", Options: []Option{OptDebugFlag, OptVersion}}
	p := ParseEnv(c, []string{"pmlogger", "-D", "pdu,nosuch", "-V"}, cleanEnv())
	if len(p.Messages) == 0 || p.Messages[0] != want+"\n" || p.Errors != 1 {
		t.Errorf("messages %q, PCP's first line %q", p.Messages, want)
	}
}
