package cli

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// pmvalLike is pmval's option table: PMAPI_GENERAL_OPTIONS and more.
func pmvalLike() *Command {
	opts := append(GeneralOptions(), OptSpecLocal, OptLocalPMDA, OptContainer, OptDerived,
		Header("Reporting options"),
		Option{Long: "delay", Short: 'd', Help: "delay, pause between updates for archive replay"},
		Option{Long: "precision", Short: 'f', Arg: "N", Help: "fixed output format with N digits precision"},
		Option{Long: "instances", Short: 'i', Arg: "INST", Help: "comma-separated metrics instance list"},
		Option{Long: "raw", Short: 'r', Help: "output raw counter values (no rate conversion)"},
		Option{Long: "nointerp", Short: 'U', Arg: "FILE", Help: "non-interpolated fetching; ignores interval"},
		Option{Long: "verbose", Short: 'v', Help: "increase diagnostic output"},
		Option{Long: "width", Short: 'w', Arg: "N", Help: "set the width of each column of output"},
		Option{Long: "filter", Short: 'x', Arg: "VALUE", Help: "store to the metric before fetching (filter)"},
		Option{Long: "timestamp", Short: 'X', Help: "include date and microseconds in reported timestamps"},
	)
	return &Command{Name: "pmval", Usage: "[options] metricname", Options: opts}
}

// TestGeneralOptionsAgainstPCP compares the standard time and sampling
// options' errors and usage layout with PCP's pmval, whose table starts
// with PMAPI_GENERAL_OPTIONS.
func TestGeneralOptionsAgainstPCP(t *testing.T) {
	pmval := pcptest.NeedTool(t, "pmval")
	for _, args := range [][]string{
		{"-?"}, {"-y"}, {"-s", "x"}, {"-s", "-3"}, {"-g", "-p", "5"}, {"-p", "5", "-g"},
		{"-t"}, {"-V"}, {"--derived"}, {"--samples"}, {"-A"}, {"-S"}, {"-T"}, {"-O"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cmd := exec.Command(pmval, args...)
			cmd.Env = cleanEnv(t)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			c := pmvalLike()
			p := ParseEnv(c, append([]string{"pmval"}, args...), cleanEnv(t))
			done, status := p.Done()
			if !done {
				t.Fatalf("Parse accepted %q; PCP's pmval exited %d: %s", args, code, stderr.String())
			}
			if got := p.Report(c); got != stderr.String() {
				t.Errorf("Report:\n%s\nPCP's pmval:\n%s", got, stderr.String())
			}
			if status != code {
				t.Errorf("status %d, PCP's %d", status, code)
			}
		})
	}
}

func TestStrtol(t *testing.T) {
	// C's strtol(s, &end, 10) and whether *end == '\0'
	tests := []struct {
		s    string
		n    int64
		full bool
	}{
		{"", 0, true},
		{"12", 12, true},
		{" 12", 12, true},
		{"-7", -7, true},
		{"+7", 7, true},
		{"12x", 12, false},
		{"x", 0, false},
		{"-", 0, false},
		{"12 ", 12, false},
		{"0x10", 0, false},
	}
	for _, tt := range tests {
		n, full := Strtol(tt.s)
		if n != tt.n || full != tt.full {
			t.Errorf("Strtol(%q) = %d, %v; want %d, %v", tt.s, n, full, tt.n, tt.full)
		}
	}
}
