package pmlogger

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testbed"
	"github.com/gopcp/gopcp/pmapi"
)

// liveConfig exercises singular and instanced metrics, strings, counters,
// an instance list, a metric whose instances change between fetches
// (sample.dynamic via sample.many / sample.bin) and two intervals.
const liveConfig = `
# the sample agent and pmcd
log mandatory on 50 msec {
	sample.long.one
	sample.colour
	sample.seconds
	sample.string.hullo
	sample.bin [ "bin-100" bin-300, 500 ]
	sample.mirage
	pmcd.pmlogger
}
log mandatory on once { sample.ulong }
log advisory on 100 msec { sample.double.ten sample.long.one }
log mandatory off { sample.double }
`

var buildOnce sync.Map

// goTool builds one of our commands once per test binary.
func goTool(t *testing.T, name string) string {
	t.Helper()
	if v, ok := buildOnce.Load(name); ok {
		return v.(string)
	}
	dir, err := os.MkdirTemp("", "gopcp-pmlogger-tools")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", out, "github.com/gopcp/gopcp/cmd/"+name)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", name, err, b)
	}
	buildOnce.Store(name, out)
	return out
}

// logWithOurs records cfg from p's pmcd for samples fetches with the
// library, in this process.
func logWithOurs(t *testing.T, p *testbed.PMCD, base, cfgText string, opt Options) {
	t.Helper()
	ctx := context.Background()
	src, err := pmapi.NewHostContext(ctx, p.Host())
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	cfg, err := ParseConfig(cfgText, "config", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	opt.Archive = base
	var log strings.Builder
	opt.Log = &log
	l, err := New(ctx, src, cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "Warning") {
		t.Logf("logger messages:\n%s", log.String())
	}
}

// TestArchiveAgainstPCP logs from PCP's pmcd with our logger (versions 2
// and 3) and checks the archive with PCP's own tools: pmlogcheck finds
// nothing wrong, and PCP's pmdumplog -a prints what ours prints.
func TestArchiveAgainstPCP(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	ourDump := goTool(t, "pmdumplog")
	for _, v := range []int{3, 2} {
		base := filepath.Join(t.TempDir(), "ours")
		logWithOurs(t, p, base, liveConfig, Options{Version: v, Samples: 12})
		res := p.Run("pmlogcheck", base)
		if res.Err != nil || strings.TrimSpace(res.Stdout) != "" {
			t.Errorf("v%d: PCP's pmlogcheck: %v\n%s%s", v, res.Err, res.Stdout, res.Stderr)
		}
		for _, args := range [][]string{{"-a"}, {"-a", "-x"}, {"-dilLmst"}, {"-e", "-h"}} {
			pcpOut := p.Run("pmdumplog", append(args, base)...)
			if pcpOut.Err != nil {
				t.Fatalf("v%d: PCP's pmdumplog %v: %v\n%s", v, args, pcpOut.Err, pcpOut.Stderr)
			}
			b, err := exec.Command(ourDump, append(args, base)...).CombinedOutput()
			if err != nil {
				t.Fatalf("v%d: our pmdumplog %v: %v\n%s", v, args, err, b)
			}
			if string(b) != pcpOut.Stdout {
				t.Errorf("v%d: pmdumplog %v differs:\n%s", v, args, diff(pcpOut.Stdout, string(b)))
			}
		}
		if v == 3 {
			out := p.Run("pmdumplog", "-i", base).Stdout
			if !regexp.MustCompile(`InDom: 29\.\d+`).MatchString(out) {
				t.Errorf("no sample instance domains in\n%s", out)
			}
		}
	}
}

// diff shows the first differing lines of two texts.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	n := 0
	for i := 0; i < max(len(w), len(g)) && n < 10; i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			b.WriteString("line " + strconv.Itoa(i+1) + ":\n  PCP:  " + a + "\n  ours: " + c + "\n")
			n++
		}
	}
	return b.String()
}
