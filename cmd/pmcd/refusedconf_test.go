package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

var logDate = regexp.MustCompile(`[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d \d{4}`)

// TestRefusedConfLogLikePCP starts PCP's pmcd and ours, on private ports
// and directories, on configurations each refuses: a missing file, a
// directory, one without agents, one whose [access] section fails (with
// libpcp's own complaint among the parser's lines). The log, standard
// error and exit status are the same, times and process ids masked.
func TestRefusedConfLogLikePCP(t *testing.T) {
	t.Parallel()
	in := testbed.Need(t)
	ours := buildPMCD(t)
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	type refusal struct {
		conf string
		args []string
	}
	cases := []refusal{}
	for _, conf := range []string{
		"missing", "directory", "", "# nothing\n\n",
		pmcdLine + "[access]\nallow nosuch.host.invalid : all;\n",
		pmcdLine + "[access]\nallow users nosuchuser : all;\n",
		pmcdLine + "\"unterminated\n",
	} {
		cases = append(cases, refusal{conf: conf})
	}
	// Namespaces libpcp refuses: its lines, then pmcd's, bare.
	cases = append(cases, refusal{pmcdLine, []string{"-n", "/nonexistent/root"}},
		refusal{pmcdLine, []string{"-N", "/dev/null"}}, refusal{pmcdLine, []string{"-n", "/"}})
	for _, c := range cases {
		conf := c.conf
		run := func(bin string) (string, int) {
			dir := privateDirs(t)
			path := filepath.Join(dir, "pmcd.conf")
			switch conf {
			case "missing":
			case "directory":
				if err := os.Mkdir(path, 0o755); err != nil {
					t.Fatal(err)
				}
			default:
				if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			logPath := filepath.Join(dir, "log", "pmcd.log")
			// Each refuses the configuration and exits; a limit in case
			// one starts after all.
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			args := append([]string{"-f", "-A", "-p", strconv.Itoa(port), "-s", filepath.Join(dir, "run", "pmcd.socket"),
				"-l", logPath, "-x", filepath.Join(dir, "log", "fatal"), "-c", path}, c.args...)
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Env = append(withoutPMCDVars(os.Environ()), "PCP_RUN_DIR="+filepath.Join(dir, "run"),
				"PCP_TMP_DIR="+filepath.Join(dir, "tmp"), "PMCD_ROOT_AGENT=0")
			_, stderr, code := clitest.RunCmd(t, cmd)
			log, _ := os.ReadFile(logPath)
			text := "log:\n" + string(log) + "stderr:\n" + string(stderr)
			text = strings.ReplaceAll(text, dir, "DIR")
			text = stamp.ReplaceAllString(logDate.ReplaceAllString(text, "DATE"), "[TIME] pmcd(PID)")
			return text, code
		}
		want, wantCode := run(in.PMCD)
		got, gotCode := run(ours)
		if got != want || gotCode != wantCode {
			t.Errorf("configuration %q %q:\nPCP's (exit %d):\n%s\nours (exit %d):\n%s", conf, c.args, wantCode, want, gotCode, got)
		}
	}
}

// withoutPMCDVars drops the variables that would send pmcd elsewhere.
func withoutPMCDVars(env []string) []string {
	var out []string
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != "PMCD_PORT" && k != "PMCD_SOCKET" && k != "PCP_RUN_DIR" && k != "PCP_TMP_DIR" {
			out = append(out, kv)
		}
	}
	return out
}
