package compat

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }

// beds is PCP's pmcd with PCP's agents and ours with ours (in-process),
// each serving pmcd's own agent, the sample agent and, when asked, the
// Linux agent.
type beds struct{ theirs, ours *testbed.PMCD }

// startBeds starts both pmcds for t, fresh, so that agents whose answers
// count the requests they had (sample.colour, the event records) start
// alike.
func startBeds(t *testing.T, linux bool) beds {
	t.Helper()
	in := testbed.Need(t)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "root_sample")
	text := "root {\n\tsample\n}\n\n#define SAMPLE 29\n#include \"" +
		filepath.Join(in.Var("PCP_PMDAS_DIR"), "sample", "pmns") + "\"\n"
	if err := os.WriteFile(root, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	theirs := []testbed.Agent{testbed.PMCDAgent(), testbed.SampleAgent()}
	ours := []testbed.Agent{testbed.PMCDAgent(), testbed.GoDSOAgent("sample", 29, "sample_init", root)}
	if linux {
		theirs = append(theirs, testbed.LinuxAgent())
		ours = append(ours, testbed.GoDSOAgent("linux", 60, "linux_init", "$PCP_VAR_DIR/pmns/root_linux"))
	}
	return beds{
		theirs: testbed.StartPMCD(t, testbed.Options{Agents: theirs}),
		ours:   testbed.StartGoPMCD(t, testbed.Options{Agents: ours}),
	}
}

// python is the Python that has python3-pcp: Debian's, which a python3
// earlier in $PATH (pyenv, a virtualenv) may hide. PCP's python tools
// run under it through PCP_PYTHON_PROG.
func python(t *testing.T) string {
	t.Helper()
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import pcp.pmapi").Run() == nil {
			return py
		}
	}
	pcptest.Missing(t, "python3-pcp is not installed")
	return ""
}

// hostArg in a step's arguments is replaced by the bed's host.
const hostArg = "@HOST@"

// step is one client run of a conversation: its command line (hostArg
// where the bed's host goes), and what of its output is masked beyond
// the common masks.
type step struct {
	args []string
	mask func(string) string
}

// run runs a step's client against bed p, in dir when it is not empty,
// and returns what it printed, exit status included, masked. It may run
// on any goroutine.
func run(p *testbed.PMCD, py, dir string, s step) (string, error) {
	args := make([]string, len(s.args))
	for i, a := range s.args {
		args[i] = strings.ReplaceAll(a, hostArg, p.Host())
		if strings.HasPrefix(a, "testdata/") {
			abs, err := filepath.Abs(a)
			if err != nil {
				return "", err
			}
			args[i] = abs
		}
	}
	// A client that hangs is killed and said so, rather than holding
	// the package until go test's own timeout.
	ctx, cancel := context.WithTimeout(context.Background(), testbed.RunTimeout)
	defer cancel()
	var cmd *exec.Cmd
	var err error
	if strings.HasSuffix(args[0], ".py") {
		cmd = exec.CommandContext(ctx, py, args...)
		cmd.Env = p.Env()
	} else if cmd, err = p.Command(ctx, args[0], args[1:]...); err != nil {
		return "", err
	}
	cmd.Env = append(cmd.Env, "PCP_PYTHON_PROG="+py, "TZ=UTC")
	if dir != "" {
		cmd.Dir = dir
	}
	cmd.WaitDelay = testbed.RunTimeout
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return "", fmt.Errorf("%v: killed after %v\n%s", args, testbed.RunTimeout, out)
	}
	code := 0
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	} else if err != nil {
		return "", fmt.Errorf("%v: %w", args, err)
	}
	text := strings.ReplaceAll(string(out), p.Host(), "HOST")
	text = fmt.Sprintf("%s\nexit %d\n", commonMask(text), code)
	if s.mask != nil {
		text = s.mask(text)
	}
	return text, nil
}

// The masks every output gets: times of day and dates. Process ids are
// masked by the steps that print them.
var (
	clockRE = regexp.MustCompile(`\d\d:\d\d:\d\d(\.\d+)?`)
	dateRE  = regexp.MustCompile(`(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d TIME \d{4}`)
	isoRE   = regexp.MustCompile(`\d{4}-\d\d-\d\d[ T]TIME`)
)

func commonMask(s string) string {
	s = clockRE.ReplaceAllString(s, "TIME")
	s = dateRE.ReplaceAllString(s, "DATE")
	s = isoRE.ReplaceAllString(s, "DATE")
	return s
}

// numbers masks every number and squeezes runs of blanks, for clients
// whose values come from the kernel and whose columns follow the widths
// of those values.
var (
	numberRE = regexp.MustCompile(`-?\d+(\.\d+)?([eE][-+]?\d+)?`)
	blanksRE = regexp.MustCompile(`[ \t]+`)
)

func numbers(s string) string {
	return blanksRE.ReplaceAllString(numberRE.ReplaceAllString(s, "N"), " ")
}

// converse runs every step against PCP's bed and ours, in order, and
// reports each whose output differs.
func converse(t *testing.T, b beds, py string, steps []step) {
	t.Helper()
	for _, s := range steps {
		// Both sides at once: the clients spend most of their time
		// waiting for their intervals.
		var want string
		var wantErr error
		done := make(chan struct{})
		go func() {
			defer close(done)
			want, wantErr = run(b.theirs, py, "", s)
		}()
		start := time.Now()
		got, err := run(b.ours, py, "", s)
		<-done
		if err = errors.Join(err, wantErr); err != nil {
			t.Fatal(err)
		}
		if testing.Verbose() {
			t.Logf("%v %s", time.Since(start).Round(time.Millisecond), strings.Join(s.args, " "))
		}
		if got != want {
			t.Errorf("%s: %s", strings.Join(s.args, " "), clitest.Diff(want, got))
		}
	}
}
