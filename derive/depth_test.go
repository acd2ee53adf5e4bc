package derive

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// deepExprs are expressions nested n deep, each costing bison's stack
// its own number of symbols a level.
var deepExprs = map[string]func(n int) string{
	"paren": func(n int) string { return strings.Repeat("(", n) + "1" + strings.Repeat(")", n) },
	"neg":   func(n int) string { return strings.Repeat("-", n) + "1" },
	"not":   func(n int) string { return strings.Repeat("!", n) + "1" },
	"plus":  func(n int) string { return strings.Repeat("1+(", n) + "1" + strings.Repeat(")", n) },
	"mul":   func(n int) string { return strings.Repeat("2*-", n) + "1" },
	"rescale": func(n int) string {
		return strings.Repeat("rescale(", n) + "x" + strings.Repeat(`,"count")`, n)
	},
}

// TestDepthLikePCP loads definitions nested just within and just past
// the depth where libpcp's parser runs out of stack, and compares the
// warnings with those PCP's pminfo prints loading the same file.
func TestDepthLikePCP(t *testing.T) {
	pminfo := pcptest.NeedTool(t, "pminfo")
	archive := filepath.Join(qaArchives, "20041125")
	if _, err := os.Stat(archive + ".meta"); err != nil {
		pcptest.Missing(t, "PCP's QA archives (pcp-testsuite) are not installed")
	}
	// The deepest each shape PCP 6.0.3 takes: one level more fails.
	deepest := map[string]int{"paren": 9996, "neg": 9997, "not": 9997, "plus": 3332, "mul": 3332, "rescale": 4997}
	var conf strings.Builder
	conf.WriteString("deep.ok = 1\n")
	for name, n := range deepest {
		for _, d := range []int{n, n + 1} {
			conf.WriteString("deep." + name + "." + string(rune('a'+d-n)) + " = " + deepExprs[name](d) + "\n")
		}
	}
	path := filepath.Join(t.TempDir(), "deep.conf")
	if err := os.WriteFile(path, []byte(conf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pminfo, "-a", archive, "deep.ok")
	cmd.Env = append(os.Environ(), "PCP_DERIVED_CONFIG="+path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pminfo: %v\n%.500s", err, stderr.String())
	}
	var warnings strings.Builder
	reg := NewRegistry()
	reg.Warn = func(m string) { warnings.WriteString(m) }
	if _, err := reg.LoadConfig(path); err != nil {
		t.Fatal(err)
	}
	if want, got := stderr.String(), warnings.String(); want != got {
		diffReport(t, nil, want, got) // lines of some 20,000 bytes
	}
}

// TestDeepNesting parses a million nested levels of each shape: a
// syntax error at libpcp's depth, where the recursive parser overflowed
// Go's stack and ended the process before its bound.
func TestDeepNesting(t *testing.T) {
	for name, expr := range deepExprs {
		_, err := Parse("deep.x", expr(1_000_000))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Msg != "" || se.Pos > 4*bisonMaxDepth {
			t.Errorf("%s: %v", name, err)
		}
	}
}
