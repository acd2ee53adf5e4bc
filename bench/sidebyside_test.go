package bench

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/fixture"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// harness builds libpcp's side of the benchmarks, optimised as a C
// program that cared about speed would be.
func harness(t testing.TB) string {
	return pcptest.HarnessWith(t, "testdata/harness/bench.c", "-O2")
}

// benchResult is fixture.MixedResult: 100 metrics × 10 instances of
// mixed in-situ and block values.
func benchResult() *pcp.Result { return fixture.MixedResult() }

// capturedHighRes is the largest HIGHRES_RESULT pmcd sent pmlogger in the
// golden capture: sample.long.one, sample.colour and sample.event.records.
func capturedHighRes(t testing.TB) []byte {
	f, err := os.Open("../pdu/testdata/captures/pmlogger-pmcd.pdus")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var best []byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "< ") {
			continue
		}
		b, err := hex.DecodeString(line[2:])
		if err != nil {
			t.Fatal(err)
		}
		if len(b) >= 8 && pdu.Type(binary.BigEndian.Uint32(b[4:])) == pdu.TypeHighResResult && len(b) > len(best) {
			best = b
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if best == nil {
		t.Fatal("no HIGHRES_RESULT in the capture")
	}
	return best
}

// unitStrings are what pmParseUnitsStr gets in practice: pmUnitsStr's own
// output, the abbreviations people type, powers, scales and multipliers.
var unitStrings = []string{
	"byte", "Kbyte", "Mbyte", "Gbyte", "Tbyte", "Pbyte", "Ebyte",
	"KB", "MB", "GiB", "Kibibytes", "Kilobyte", "megabytes",
	"nanosec", "ns", "microsec", "us", "millisec", "ms", "sec", "s",
	"min", "hour", "hr", "millisecond", "seconds",
	"count", "counts", "count x 10", "count x 10^3", "count x 10^6", "count x 10^-2",
	"Kbyte / sec", "byte / sec", "Mbyte / min", "count / sec", "/ sec", "/ count",
	"millisec / sec", "microsec / count", "byte / count", "Kbyte / count",
	"byte^2 / millisec", "count^2", "sec^2 / byte", "byte / sec^2",
	"1024 byte", "2 count", "Kbyte / byte", "1000 millisec / sec",
	"KBYTE / SEC", "Gbyte / hour",
}

// The values pmExtractValue converts; the harness has the same.
const (
	extractU64 uint64 = 123456789012345
	extract32  int32  = 1234567
)

// sink keeps the compiler from dropping the extractions timed; the
// harness stores into a static pmAtomValue likewise.
var sink float64

// pmnsRoot is the system namespace both sides load.
func pmnsRoot(t testing.TB) string {
	p := filepath.Join(pmns.SystemDir(), "root")
	if _, err := os.Stat(p); err != nil {
		pcptest.Missing(t, "no system PMNS: "+err.Error())
	}
	return p
}

// dumpResult prints r as the harness prints libpcp's decoded result.
func dumpResult(r *pcp.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "ts %d %d\nnumpmid %d\n", r.Timestamp.Sec, r.Timestamp.Nsec, len(r.Sets))
	for _, s := range r.Sets {
		fmt.Fprintf(&b, "pmid %d numval %d", uint32(s.PMID), s.NumVal)
		if s.NumVal <= 0 {
			b.WriteString("\n")
			continue
		}
		fmt.Fprintf(&b, " valfmt %d\n", s.ValFmt)
		for _, v := range s.Values {
			if s.ValFmt == pcp.ValInSitu {
				fmt.Fprintf(&b, "inst %d lval %d\n", v.Inst, v.LVal)
				continue
			}
			fmt.Fprintf(&b, "inst %d type %d data %x\n", v.Inst, v.Block.Type, v.Block.Data)
		}
	}
	return b.String()
}

// A sideCase is one row of the table: what the harness times and what Go
// times on the same input.
type sideCase struct {
	name  string
	cCase string // the harness's case
	cArg  string // its optional argument
	stdin string
	goFn  func(b *testing.B)
	// check returns gopcp's answer, to be equal to the harness's check
	// output; nil when another row's check covers this one's answers.
	check func(t testing.TB) string
}

func (c *sideCase) cKey() string { return c.cCase + "\x00" + c.cArg + "\x00" + c.stdin }

func pduHex(b []byte) string { return hex.EncodeToString(b) + "\n" }

func decodeCase(name string, p []byte, highres bool) sideCase {
	decode := pdu.DecodeResultInto
	cCase := "result"
	if highres {
		decode, cCase = pdu.DecodeHighResResultInto, "highres"
	}
	return sideCase{
		name: name, cCase: cCase, stdin: pduHex(p),
		goFn: func(b *testing.B) {
			r := new(pcp.Result)
			for b.Loop() {
				if err := decode(r, p); err != nil {
					b.Fatal(err)
				}
			}
		},
		check: func(t testing.TB) string {
			r := new(pcp.Result)
			if err := decode(r, p); err != nil {
				t.Fatal(err)
			}
			return dumpResult(r)
		},
	}
}

func decodeFreshCase(name string, p []byte, highres bool) sideCase {
	c := decodeCase(name, p, highres)
	decode := pdu.DecodeResultInto
	if highres {
		decode = pdu.DecodeHighResResultInto
	}
	c.goFn = func(b *testing.B) {
		for b.Loop() {
			if err := decode(new(pcp.Result), p); err != nil {
				b.Fatal(err)
			}
		}
	}
	c.check = nil
	return c
}

func encodeCase(name string, r *pcp.Result, highres, fresh bool) sideCase {
	enc := pdu.AppendResult
	cCase := "encode-result"
	if highres {
		enc, cCase = pdu.AppendHighResResult, "encode-highres"
	}
	p := enc(nil, 0, r)
	c := sideCase{
		name: name, cCase: cCase, stdin: pduHex(p),
		goFn: func(b *testing.B) {
			buf := enc(nil, 0, r)
			for b.Loop() {
				buf = enc(buf[:0], 0, r)
			}
		},
		check: func(testing.TB) string { return pduHex(p) },
	}
	if fresh {
		c.goFn = func(b *testing.B) {
			for b.Loop() {
				enc(nil, 0, r)
			}
		}
		c.check = nil
	}
	return c
}

// cases returns the rows of the table, in order.
func cases(t testing.TB) []sideCase {
	result := benchResult()
	plain := pdu.AppendResult(nil, 0, result)
	high := pdu.AppendHighResResult(nil, 0, result)
	captured := capturedHighRes(t)

	root := pmnsRoot(t)
	tree, err := pmns.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	names, err := tree.Traverse("")
	if err != nil {
		t.Fatal(err)
	}
	nameLines := strings.Join(names, "\n") + "\n"
	lookups := func(tree *pmns.Tree) string {
		var b strings.Builder
		for _, n := range names {
			if id, err := tree.Lookup(n); err != nil {
				fmt.Fprintf(&b, "%s %v\n", n, err)
			} else {
				fmt.Fprintf(&b, "%s %d\n", n, uint32(id))
			}
		}
		return b.String()
	}
	loadCase := func(name, cCase string, opts pmns.Options) sideCase {
		return sideCase{
			name: name, cCase: cCase, cArg: root, stdin: nameLines,
			goFn: func(b *testing.B) {
				for b.Loop() {
					if _, err := pmns.LoadWith(root, opts); err != nil {
						b.Fatal(err)
					}
				}
			},
			check: func(t testing.TB) string {
				tree, err := pmns.LoadWith(root, opts)
				if err != nil {
					t.Fatal(err)
				}
				return lookups(tree)
			},
		}
	}

	unitLines := strings.Join(unitStrings, "\n") + "\n"
	parsed := make([]pcp.Units, len(unitStrings))
	for i, s := range unitStrings {
		parsed[i], _, _ = pcp.ParseUnits(s)
	}
	unitsCheck := func(t testing.TB) string {
		var b strings.Builder
		for _, s := range unitStrings {
			u, m, err := pcp.ParseUnits(s)
			if err != nil {
				t.Errorf("%q does not parse, so cannot be timed: %v", s, err)
				fmt.Fprintf(&b, "%v\n", err)
				continue
			}
			fmt.Fprintf(&b, "%d %d %d %d %d %d %016x [%s]\n", u.DimSpace, u.DimTime, u.DimCount,
				u.ScaleSpace, u.ScaleTime, u.ScaleCount, math.Float64bits(m), u.String())
		}
		return b.String()
	}

	v64 := pcp.Value{Inst: -1, Block: pcp.ValueBlock{Type: pcp.TypeU64, Data: binary.NativeEndian.AppendUint64(nil, extractU64)}}
	v32 := pcp.Value{Inst: -1, LVal: extract32}
	extractCheck := func(t testing.TB) string {
		d, err := pcp.ExtractValue(pcp.ValDPtr, &v64, pcp.TypeU64, pcp.TypeDouble)
		if err != nil {
			t.Fatal(err)
		}
		u, err := pcp.ExtractValue(pcp.ValInSitu, &v32, pcp.Type32, pcp.TypeU64)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("double %016x\nu64 %d\n", math.Float64bits(d.D), u.ULL)
	}

	n := strconv.Itoa(len(names))
	u := strconv.Itoa(len(unitStrings))
	return []sideCase{
		decodeCase("RESULT decode 100x10", plain, false),
		decodeFreshCase("RESULT decode 100x10, fresh Result", plain, false),
		decodeCase("HIGHRES_RESULT decode 100x10", high, true),
		decodeCase(fmt.Sprintf("HIGHRES_RESULT decode, captured (%d B, events)", len(captured)), captured, true),
		encodeCase("RESULT encode 100x10", result, false, false),
		encodeCase("RESULT encode 100x10, fresh buffer", result, false, true),
		encodeCase("HIGHRES_RESULT encode 100x10", result, true, false),
		loadCase("PMNS load root (cpp)", "pmns-load", pmns.Options{}),
		loadCase("PMNS load root (no cpp)", "pmns-load-nocpp", pmns.Options{NoCPP: true}),
		{
			name: "PMNS lookup all " + n + " names", cCase: "pmns-lookup", cArg: root, stdin: nameLines,
			goFn: func(b *testing.B) {
				for b.Loop() {
					for _, n := range names {
						if _, err := tree.Lookup(n); err != nil {
							b.Fatal(err)
						}
					}
				}
			},
		},
		{
			name: "pmParseUnitsStr x" + u, cCase: "parseunits", stdin: unitLines,
			goFn: func(b *testing.B) {
				for b.Loop() {
					for _, s := range unitStrings {
						if _, _, err := pcp.ParseUnits(s); err != nil {
							b.Fatal(err)
						}
					}
				}
			},
			check: unitsCheck,
		},
		{
			name: "pmUnitsStr x" + u, cCase: "unitsstr", stdin: unitLines,
			goFn: func(b *testing.B) {
				for b.Loop() {
					for _, u := range parsed {
						_ = u.String()
					}
				}
			},
		},
		{
			name: "pmExtractValue U64 block -> DOUBLE", cCase: "extract-u64-double",
			goFn: func(b *testing.B) {
				var sum float64
				for b.Loop() {
					a, _ := pcp.ExtractValue(pcp.ValDPtr, &v64, pcp.TypeU64, pcp.TypeDouble)
					sum += a.D
				}
				sink = sum
			},
			check: extractCheck,
		},
		{
			name: "pmExtractValue 32 in situ -> U64", cCase: "extract-32-u64",
			goFn: func(b *testing.B) {
				var sum uint64
				for b.Loop() {
					a, _ := pcp.ExtractValue(pcp.ValInSitu, &v32, pcp.Type32, pcp.TypeU64)
					sum += a.ULL
				}
				sink = float64(sum)
			},
		},
	}
}

// runHarness runs the harness and returns its standard output.
func runHarness(t testing.TB, stdin string, args ...string) string {
	t.Helper()
	return pcptest.Run(t, stdin, harness(t), args...)
}

// TestAgree checks that libpcp and gopcp compute the same answers from the
// benchmarks' inputs, so that the timings compare like with like.
func TestAgree(t *testing.T) {
	harness(t)
	for _, c := range cases(t) {
		if c.check == nil {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			args := []string{"check", c.cCase}
			if c.cArg != "" {
				args = append(args, c.cArg)
			}
			want := runHarness(t, c.stdin, args...)
			if got := c.check(t); got != want {
				t.Errorf("gopcp and libpcp differ\n%s", firstDiff(got, want))
			}
		})
	}
}

// firstDiff shows the first line where got and want (libpcp's) differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\ngopcp:  %.300s\nlibpcp: %.300s", i+1, gl, wl)
		}
	}
	return "(no line differs)"
}

// benchTime is the duration each side's final timed run aims at: Go's
// -test.benchtime when it is a duration, else one second.
func benchTime() time.Duration {
	if f := flag.Lookup("test.benchtime"); f != nil {
		if d, err := time.ParseDuration(f.Value.String()); err == nil && d > 0 {
			return d
		}
	}
	return time.Second
}

// timeC runs the harness on c and returns libpcp's ns/op and, for the
// decoders, the cost of restoring the PDU that was subtracted from it.
func timeC(t testing.TB, c *sideCase) (ns, restore float64) {
	args := []string{"time", c.cCase, strconv.FormatInt(benchTime().Nanoseconds(), 10)}
	if c.cArg != "" {
		args = append(args, c.cArg)
	}
	out := runHarness(t, c.stdin, args...)
	restore = math.NaN()
	for line := range strings.Lines(out) {
		k, v, _ := strings.Cut(strings.TrimSpace(line), " ")
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("harness %v: bad output %q", args, line)
		}
		switch k {
		case "ns":
			ns = f
		case "restore":
			restore = f
		}
	}
	return ns, restore
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// TestSideBySide times every case on both sides, GOPCP_BENCH_ROUNDS
// rounds (3 by default), and prints the median figures as a table.
func TestSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("set GOPCP_BENCH=1 to run the side-by-side benchmarks")
	}
	rounds := 3
	if s := os.Getenv("GOPCP_BENCH_ROUNDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("GOPCP_BENCH_ROUNDS=%q", s)
		}
		rounds = n
	}
	TestAgree(t)
	if t.Failed() {
		t.FailNow()
	}
	cs := cases(t)
	type figures struct{ c, restore, goNs, allocs []float64 }
	fig := make([]figures, len(cs))
	for round := range rounds {
		cDone := map[string][2]float64{}
		for i := range cs {
			c := &cs[i]
			ns, ok := cDone[c.cKey()]
			if !ok {
				ns[0], ns[1] = timeC(t, c)
				cDone[c.cKey()] = ns
			}
			r := testing.Benchmark(func(b *testing.B) {
				b.ReportAllocs()
				c.goFn(b)
			})
			goNs := float64(r.T.Nanoseconds()) / float64(r.N)
			allocs := float64(r.MemAllocs) / float64(r.N)
			t.Logf("round %d: %s: libpcp %.1f ns/op, gopcp %.1f ns/op (%d iterations)", round+1, c.name, ns[0], goNs, r.N)
			fig[i].c = append(fig[i].c, ns[0])
			fig[i].restore = append(fig[i].restore, ns[1])
			fig[i].goNs = append(fig[i].goNs, goNs)
			fig[i].allocs = append(fig[i].allocs, allocs)
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "\n%s %s/%s, %d CPUs, GOMAXPROCS %d, benchtime %v, median of %d rounds\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), benchTime(), rounds)
	b.WriteString("| case | libpcp ns/op | gopcp ns/op | libpcp/gopcp | gopcp allocs/op |\n")
	b.WriteString("|---|---:|---:|---:|---:|\n")
	var notes []string
	for i, c := range cs {
		cNs, goNs := median(fig[i].c), median(fig[i].goNs)
		fmt.Fprintf(&b, "| %s | %s | %s | %.2f | %s |\n", c.name, num(cNs), num(goNs), cNs/goNs, num(median(fig[i].allocs)))
		if r := median(fig[i].restore); !math.IsNaN(r) && c.check != nil {
			notes = append(notes, fmt.Sprintf("%s: libpcp's PDU restore copy, %s ns/op, subtracted", c.name, num(r)))
		}
	}
	for _, n := range notes {
		b.WriteString("\n" + n)
	}
	t.Log(b.String())
	if p := os.Getenv("GOPCP_BENCH_OUT"); p != "" {
		if err := os.WriteFile(p, []byte(b.String()+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// num formats a figure with precision fitting its size.
func num(f float64) string {
	switch {
	case f >= 1000:
		return strconv.FormatFloat(f, 'f', 0, 64)
	case f >= 10:
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	return strconv.FormatFloat(f, 'f', 2, 64)
}
