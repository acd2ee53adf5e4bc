package derive

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// exprGen builds random expressions over the sample agent's metrics with
// stable values. Many are semantically wrong on purpose (mixed instance
// domains, counters in the wrong place): those compare error messages.
type exprGen struct {
	r *rand.Rand
	// the metrics to draw from; nil means the sample agent's
	scalars, sets, insts []string
	funcs                []string
}

func (g exprGen) pick(list, def []string) string {
	if list == nil {
		list = def
	}
	return list[g.r.Intn(len(list))]
}

var (
	genScalars = []string{"sample.long.one", "sample.long.ten", "sample.long.hundred", "sample.long.million",
		"sample.ulong.one", "sample.ulong.ten", "sample.ulong.million", "sample.longlong.ten",
		"sample.longlong.million", "sample.ulonglong.ten", "sample.float.ten", "sample.float.one",
		"sample.double.ten", "sample.double.million", "sample.ulong.count.kilo", "sample.ulong.count.mega"}
	genSets = []string{"sample.bin", "sample.bucket", "sample.long.bin", "sample.ulong.bin",
		"sample.longlong.bin", "sample.float.bin", "sample.double.bin", "sample.long.bin_ctr",
		"sample.ulong.bin_ctr"}
	genInsts  = []string{"bin-100", "bin-500", "bin-900", "bin-123"}
	genConsts = []string{"0", "1", "2", "7", "100", "4294967295", "0.5", "2.25", "1000.125"}
	genBinOps = []string{"+", "-", "*", "/", "<", "<=", "==", ">=", ">", "!=", "&&", "||"}
)

func (g exprGen) leaf() string {
	switch g.r.Intn(6) {
	case 0, 1:
		return g.pick(g.scalars, genScalars)
	case 2:
		return g.pick(g.sets, genSets)
	case 3:
		return genConsts[g.r.Intn(len(genConsts))]
	case 4:
		return g.pick(g.sets, genSets) + "[" + g.pick(g.insts, genInsts) + "]"
	}
	f := g.pick(g.funcs, []string{"sum", "avg", "count", "max", "min", "instant"})
	if g.r.Intn(2) == 0 {
		return f + "(" + g.pick(g.scalars, genScalars) + ")"
	}
	return f + "(" + g.pick(g.sets, genSets) + ")"
}

func (g exprGen) expr(depth int) string {
	if depth <= 0 || g.r.Intn(4) == 0 {
		return g.leaf()
	}
	switch g.r.Intn(10) {
	case 0:
		return "-" + g.expr(depth-1)
	case 1:
		// libpcp gives "!" its operand's type but stores 0 or 1 as a
		// 32-bit integer, so only a 32-bit operand has a defined value
		return "(!(" + g.expr(depth-1) + " " + genBinOps[4+g.r.Intn(8)] + " " + g.expr(depth-1) + "))"
	case 2:
		return "(" + g.expr(depth-1) + ")"
	case 3:
		return g.expr(depth-1) + " ? " + g.expr(depth-1) + " : " + g.expr(depth-1)
	case 4:
		pat := []string{"/bin-[1-4]00/", "!/bin-[1-4]00/", "/5/", "/^bin-(1|9)00$/"}[g.r.Intn(4)]
		return "matchinst(" + pat + ", " + g.expr(depth-1) + ")"
	case 5:
		c := genConsts[g.r.Intn(4)]
		spec := []string{"type=32", "type=u64", "type=double", "semantics=instant", "semantics=counter", "units=Kbyte", `units="count / sec"`}[g.r.Intn(7)]
		if strings.Contains(c, ".") && !strings.Contains(spec, "double") {
			spec = "type=double, " + spec
		}
		return "mkconst(" + c + ", " + spec + ")"
	}
	return g.expr(depth-1) + " " + genBinOps[g.r.Intn(len(genBinOps))] + " " + g.expr(depth-1)
}

// TestRandomAgainstPCP defines random expressions and compares pminfo
// -d -f of PCP with ours.
func TestRandomAgainstPCP(t *testing.T) {
	n := 400
	if s := os.Getenv("DERIVE_RANDOM_N"); s != "" {
		fmt.Sscan(s, &n)
	}
	if testing.Short() {
		n = 50
	}
	g := exprGen{r: rand.New(rand.NewSource(randomSeed()))}
	var b strings.Builder
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("r.m%03d", i)
		fmt.Fprintf(&b, "%s = %s\n", names[i], g.expr(4))
		// libpcp's scanner stays in matchinst() mode after a syntax error
		// inside one (a "/" in its expression); a good matchinst() resets
		// it before the next definition
		fmt.Fprintf(&b, "reset.m%03d = matchinst(/x/, sample.bin)\n", i)
	}
	conf := filepath.Join(t.TempDir(), "random.conf")
	if err := os.WriteFile(conf, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	p := testbed.StartPMCD(t, testbed.Options{})
	wantOut, wantErr := pcpPminfo(t, p, conf, append([]string{"-d", "-f"}, names...)...)
	gotOut, gotErr := ourPminfo(t, p.Host(), conf, true, true, names)
	want := wantOut + "\n==== stderr ====\n" + wantErr
	got := gotOut + "\n==== stderr ====\n" + gotErr
	if got != want {
		diffReport(t, nil, want, got)
		if dir := os.Getenv("DERIVE_RANDOM_KEEP"); dir != "" {
			os.WriteFile(filepath.Join(dir, "random.conf"), []byte(b.String()), 0o644)
			os.WriteFile(filepath.Join(dir, "want"), []byte(want), 0o644)
			os.WriteFile(filepath.Join(dir, "got"), []byte(got), 0o644)
		}
	}
	t.Logf("%d random expressions, pminfo -d -f compared with PCP's", n)
}

// randomSeed is 61, or DERIVE_RANDOM_SEED for a longer hunt.
func randomSeed() int64 {
	seed := int64(61)
	if s := os.Getenv("DERIVE_RANDOM_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	return seed
}
