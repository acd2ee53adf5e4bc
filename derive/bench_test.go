package derive

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// benchDefs are 20 derived metrics of the usual kinds over sample.
var benchDefs = []string{
	"rate(sample.long.bin_ctr)",
	"delta(sample.ulong.bin_ctr)",
	"sum(sample.bin)",
	"avg(sample.double.bin)",
	"max(sample.ulonglong.bin) - min(sample.ulonglong.bin)",
	"count(sample.bin)",
	"sample.bin * 2 + sample.bucket",
	"sample.long.ten / sample.long.hundred",
	"sample.kbyte_rate + sample.byte_rate",
	"rescale(sample.kbyte_rate, \"Mbyte / hour\")",
	"sample.bin > 300 ? sample.bin : sample.bucket",
	"matchinst(/bin-[1-5]00/, sample.bin)",
	"sample.bin[bin-500] + sample.long.one",
	"scalar(sample.bin[bin-900]) * 3",
	"instant(sample.long.bin_ctr)",
	"100 * rate(sample.seconds) / sample.long.ten",
	"sample.float.bin + sample.double.bin",
	"sample.long.one > 0 && sample.long.ten < 20",
	"-sample.longlong.bin",
	"delta(sample.ulonglong.bin) / (delta(sample.ulong.bin_ctr) + 1)",
}

// TestFetchSideBySide times fetching 20 derived metrics through a
// private pmcd with libpcp and with derive over pmapi, in one run.
// GOPCP_BENCH=1 runs it (see docs/derive.md).
func TestFetchSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmark")
	}
	p := testbed.StartPMCD(t, testbed.Options{})
	var b strings.Builder
	names := make([]string, len(benchDefs))
	for i, d := range benchDefs {
		names[i] = fmt.Sprintf("bench.m%02d", i)
		fmt.Fprintf(&b, "%s = %s\n", names[i], d)
	}
	conf := filepath.Join(t.TempDir(), "bench.conf")
	if err := os.WriteFile(conf, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := pcptest.HarnessWith(t, "testdata/harness/fetchbench.c", "-O2")
	const iterations = 10000
	libpcp := func(names []string) float64 {
		cmd := exec.Command(bin, append([]string{p.Host(), conf, strconv.Itoa(iterations)}, names...)...)
		cmd.Env = append(os.Environ(), "PCP_DERIVED_CONFIG=")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("fetchbench: %v", err)
		}
		ns, _ := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
		return ns
	}
	// the real metrics the definitions read, fetched plainly: the cost of
	// the round trip through pmcd, which both sides pay
	operandNames := []string{"sample.long.bin_ctr", "sample.ulong.bin_ctr", "sample.bin", "sample.double.bin",
		"sample.ulonglong.bin", "sample.bucket", "sample.long.ten", "sample.long.hundred", "sample.kbyte_rate",
		"sample.byte_rate", "sample.long.one", "sample.seconds", "sample.float.bin", "sample.longlong.bin"}
	cBase := libpcp(operandNames)
	cNs := libpcp(names)

	ctx := context.Background()
	reg := NewRegistry()
	if _, err := reg.LoadConfig(conf); err != nil {
		t.Fatal(err)
	}
	pc, err := pmapi.NewHostContext(ctx, p.Host())
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	dc := NewLayer(hostSource{pc}, reg)
	pmids, err := dc.LookupNames(ctx, names)
	if err != nil {
		t.Fatal(err)
	}
	var r pcp.Result
	res := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := dc.Fetch(ctx, pmids, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
	goNs := float64(res.NsPerOp())
	opids, err := pc.LookupNames(ctx, operandNames)
	if err != nil {
		t.Fatal(err)
	}
	base := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			if _, err := pc.Fetch(ctx, opids, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
	goBase := float64(base.NsPerOp())
	t.Logf("fetch of the 14 operand metrics: libpcp %.0f ns/op, gopcp %.0f ns/op, libpcp/gopcp = %.2f", cBase, goBase, cBase/goBase)
	t.Logf("fetch of 20 derived metrics over them: libpcp %.0f ns/op, gopcp %.0f ns/op (%d allocs/op), libpcp/gopcp = %.2f",
		cNs, goNs, res.AllocsPerOp(), cNs/goNs)
	t.Logf("cost of the derived metrics beyond the plain fetch: libpcp %.0f ns, gopcp %.0f ns", cNs-cBase, goNs-goBase)
}

// BenchmarkEval is the evaluation alone: 8 derived metrics over scripted
// samples, no I/O.
func BenchmarkEval(b *testing.B) {
	src := newFake()
	reg := NewRegistry()
	names := []string{"d.delta", "d.rate", "d.util", "d.sum", "d.count", "d.div", "d.zero", "d.plus"}
	exprs := []string{"delta(m.ctr)", "rate(m.ctr)", "rate(m.busy)", "sum(m.ctr)", "count(m.val)", "m.val / m.zero", "m.zero / m.zero", "m.val + 1"}
	for i := range names {
		if err := reg.Register(names[i], exprs[i]); err != nil {
			b.Fatal(err)
		}
	}
	// replay the first two samples over and over
	src.samples = src.samples[:2]
	src.stamps = src.stamps[:2]
	c := NewLayer(src, reg)
	ctx := context.Background()
	pmids, err := c.LookupNames(ctx, names)
	if err != nil {
		b.Fatal(err)
	}
	var r pcp.Result
	b.ReportAllocs()
	for b.Loop() {
		src.next %= 2
		src.fetched = src.fetched[:0]
		if err := c.Fetch(ctx, pmids, &r); err != nil {
			b.Fatal(err)
		}
	}
}

// TestArchiveSideBySide times 20 derived metrics fetched from a QA
// archive, interpolated, by libpcp and by derive over pmapi's archive
// context, in one run. GOPCP_BENCH=1 runs it.
func TestArchiveSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmark")
	}
	g := archiveGroups(t)[0]
	g.exprs, g.names = g.exprs[:20], g.names[:20]
	var b strings.Builder
	for i, e := range g.exprs {
		fmt.Fprintf(&b, "%s = %s\n", g.names[i], e)
	}
	conf := filepath.Join(t.TempDir(), "bench.conf")
	if err := os.WriteFile(conf, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	const fetches, passes, ms = 200, 20, 5000
	arch := filepath.Join(qaArchives, g.archive)
	bin := pcptest.HarnessWith(t, "testdata/harness/archbench.c", "-O2")
	cmd := exec.Command(bin, append([]string{arch, conf, strconv.Itoa(ms), strconv.Itoa(fetches), strconv.Itoa(passes)}, g.names...)...)
	cmd.Env = append(os.Environ(), "PCP_DERIVED_CONFIG=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("archbench: %v", err)
	}
	cNs, _ := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)

	ctx := context.Background()
	reg := NewRegistry()
	if _, err := reg.LoadConfig(conf); err != nil {
		t.Fatal(err)
	}
	ac, err := pmapi.NewArchiveContext(ctx, arch)
	if err != nil {
		t.Fatal(err)
	}
	defer ac.Close()
	dc := NewLayer(archiveSource{ac}, reg)
	pmids, err := dc.LookupNames(ctx, g.names)
	if err != nil {
		t.Fatal(err)
	}
	var r pcp.Result
	start := time.Now()
	for range passes {
		if err := ac.SetMode(pmapi.ModeInterp, ac.Start(), ms*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		for range fetches {
			if err := dc.Fetch(ctx, pmids, &r); err != nil {
				t.Fatal(err)
			}
		}
	}
	goNs := float64(time.Since(start).Nanoseconds()) / (passes * fetches)
	t.Logf("20 derived metrics from %s, interpolated every %d ms: libpcp %.0f ns/fetch, gopcp %.0f ns/fetch, libpcp/gopcp = %.2f",
		g.archive, ms, cNs, goNs, cNs/goNs)
}
