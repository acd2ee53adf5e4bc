package fetchgroup

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/derive"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmapi/derived"
)

// derivedScript extends a group with the derived metrics of
// testdata/derived.conf: items, an instance domain, rates and deltas
// (PM_ERR_AGAIN-free from the second fetch), conversions and scales, and
// one whose operand does not exist.
const derivedScript = `
item fg.sum - - 32
item fg.scaled - - double
item fg.ratio - - double
item fg.ratio - - string
item fg.text - - u64
item fg.bins bin-300 - 32
indom fg.bins - 64 20
indom fg.bins - string 3
item fg.rate - - double
item fg.delta - - u32
item fg.bad - - 32
item fg.no.such - - 32
item fg.sum - kbyte 32
fetch
fetch
`

// TestDerivedAgainstLibpcp runs the script through libpcp with
// PCP_DERIVED_CONFIG naming the file, and through a group whose context
// has the same file loaded into its registry.
func TestDerivedAgainstLibpcp(t *testing.T) {
	bin := pcptest.Harness(t, "testdata/harness/fetchgroup.c")
	bed := testbed.StartPMCD(t, testbed.Options{})
	ctx := context.Background()

	cmd, err := bed.Command(ctx, bin, "host", bed.Host())
	if err != nil {
		t.Fatal(err)
	}
	conf, err := filepath.Abs("testdata/derived.conf")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(cmd.Env, "PCP_DERIVED_CONFIG="+conf)
	cmd.Stdin = stringsReader(derivedScript)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("harness: %v", err)
	}

	if !strings.Contains(string(out), "h6 indom 0 9") {
		t.Fatalf("libpcp did not load the derived metrics:\n%s", out)
	}
	reg := derive.NewRegistry()
	if _, err := reg.LoadConfig("testdata/derived.conf"); err != nil {
		t.Fatal(err)
	}
	src, err := pmapi.NewContext(ctx, pmapi.KindHost, bed.Host())
	if err != nil {
		t.Fatal(err)
	}
	g := New(derived.Wrap(src, reg))
	defer g.Close()
	ours := runScript(t, g, derivedScript, nil)
	// Rates of the milliseconds counter move with the two programs'
	// fetch times.
	if d := diffTranscripts(string(out), ours, 0.25); d != "" {
		t.Errorf("%s\nlibpcp:\n%s\ngopcp:\n%s", d, out, ours)
	}
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

// derivedArchiveScript is derived metrics on an archive, interpolated and
// then forward.
const derivedArchiveScript = `
mode interp 1.5
ts
item fg.msec - - double
item fg.msec - instant double
item fg.both - instant 64
item fg.rate - - double
item fg.delta - - u64
item fg.bad - - 32
fetch
fetch
fetch
mode forw
fetch
fetch
`

func TestDerivedArchiveAgainstLibpcp(t *testing.T) {
	bin := pcptest.Harness(t, "testdata/harness/fetchgroup.c")
	path := filepath.Join(qaArchives, "sample-secs")
	if _, err := os.Stat(path + ".meta"); err != nil {
		pcptest.Missing(t, "QA archive: "+err.Error())
	}
	conf, err := filepath.Abs("testdata/derived-archive.conf")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "archive", path)
	cmd.Env = append(os.Environ(), "PCP_DERIVED_CONFIG="+conf)
	cmd.Stdin = strings.NewReader(derivedArchiveScript)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("harness: %v", err)
	}
	if !strings.Contains(string(out), "h1 item 0 ") {
		t.Fatalf("libpcp did not load the derived metrics:\n%s", out)
	}
	reg := derive.NewRegistry()
	if _, err := reg.LoadConfig(conf); err != nil {
		t.Fatal(err)
	}
	src, err := pmapi.NewContext(context.Background(), pmapi.KindArchive, path)
	if err != nil {
		t.Fatal(err)
	}
	g := New(derived.Wrap(src, reg))
	defer g.Close()
	ours := runScript(t, g, derivedArchiveScript, nil)
	if d := diffTranscripts(string(out), ours, 0); d != "" {
		t.Errorf("%s\nlibpcp:\n%s\ngopcp:\n%s", d, out, ours)
	}
}
