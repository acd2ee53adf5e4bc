package getopt

import (
	"bytes"
	"os"
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
	if !reflect.DeepEqual(names, debugNames[:]) {
		t.Errorf("pmdbg -l lists %q\nwe know %q", names, debugNames)
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

// cleanEnv is the environment without PCP's option variables, so that
// PCP's tools and the parser see the same settings.
func cleanEnv() []string {
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "PCP_") || strings.HasPrefix(e, "PCP_CONF=") || strings.HasPrefix(e, "PCP_DIR=") {
			env = append(env, e)
		}
	}
	return env
}
