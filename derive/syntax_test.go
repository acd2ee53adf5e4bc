package derive

import (
	"bufio"
	"errors"
	"flag"
	"math/rand"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
)

var update = flag.Bool("update", os.Getenv("UPDATE_GOLDEN") == "1", "rewrite golden files from real PCP")

// registerVerdicts runs libpcp's pmRegisterDerivedMetric on each
// expression through the C harness and returns its answers.
func registerVerdicts(t testing.TB, exprs []string) []string {
	t.Helper()
	bin := pcptest.Harness(t, "testdata/harness/register.c")
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "PCP_DERIVED_CONFIG=")
	cmd.Stdin = strings.NewReader(strings.Join(exprs, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("register harness: %v", err)
	}
	answers := strings.Split(string(out), "%%\n")
	answers = answers[:len(answers)-1]
	if len(answers) != len(exprs) {
		t.Fatalf("harness gave %d answers for %d expressions", len(answers), len(exprs))
	}
	for i := range answers {
		answers[i] = strings.TrimSuffix(answers[i], "\n")
	}
	return answers
}

// ourVerdict is what Parse says, in the harness's format; the harness
// numbers its metrics from 0.
func ourVerdict(i int, expr string) string {
	_, err := Parse("gopcp.check.m"+strconv.Itoa(i), expr)
	if err == nil {
		return "ok"
	}
	var se *SyntaxError
	if !errors.As(err, &se) {
		return "unexpected error: " + err.Error()
	}
	if !errors.Is(err, pcp.ErrBadDerive) {
		return "error is not PM_ERR_BADDERIVE"
	}
	return se.Error()
}

func readLines(t testing.TB, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// TestSyntaxGolden checks every expression of testdata/syntax.txt
// against libpcp's verdicts in testdata/syntax.golden (captured with
// UPDATE_GOLDEN=1 from the C harness), and against libpcp live when it is
// installed.
func TestSyntaxGolden(t *testing.T) {
	exprs := readLines(t, "testdata/syntax.txt")
	golden := "testdata/syntax.golden"
	if *update {
		answers := registerVerdicts(t, exprs)
		if err := os.WriteFile(golden, []byte(strings.Join(answers, "\n%%\n")+"\n%%\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(string(data), "\n%%\n")
	want = want[:len(want)-1]
	if len(want) != len(exprs) {
		t.Fatalf("%s has %d answers for %d expressions: regenerate with UPDATE_GOLDEN=1", golden, len(want), len(exprs))
	}
	for i, expr := range exprs {
		if got := ourVerdict(i, expr); got != want[i] {
			t.Errorf("expression %d %q:\n got: %s\nwant: %s", i, expr, got, want[i])
		}
	}
	if _, err := exec.LookPath("gcc"); err == nil || pcptest.Required() {
		live := registerVerdicts(t, exprs)
		for i := range exprs {
			if live[i] != want[i] {
				t.Errorf("golden answer %d is stale: libpcp now says %s", i, live[i])
			}
		}
	}
}

// randomTokens builds a random sequence of the language's tokens, most
// of which are wrong somewhere, to compare error reports with libpcp.
func randomTokens(r *rand.Rand) string {
	words := []string{"a", "b.c", "sample.long.one", "1", "2.5", "4294967296", "+", "-", "*", "/",
		"(", ")", "<", "<=", "==", ">=", ">", "!=", "&&", "||", "!", "?", ":", ",", "=",
		"[x]", "[y\\]z]", `"Kbyte"`, "type", "units", "semantics", "sum(", "avg(", "delta(", "rate(",
		"count(", "defined(", "instant(", "max(", "min(", "scalar(", "rescale(", "matchinst(",
		"mkconst(", "/a.*/", "!/x/", "$", "&", "|", "[open", `"open`, "sum", "PM_TYPE_U32", " "}
	n := 1 + r.Intn(8)
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(words[r.Intn(len(words))])
		if r.Intn(3) == 0 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// TestSyntaxRandom compares our verdicts with libpcp's on random token
// sequences.
func TestSyntaxRandom(t *testing.T) {
	n := 5000
	if testing.Short() {
		n = 300
	}
	r := rand.New(rand.NewSource(6))
	var seeds []string
	for _, l := range readLines(t, "testdata/cases.txt") {
		if l != "" && l[0] != '#' {
			seeds = append(seeds, strings.TrimPrefix(l, "!"))
		}
	}
	exprs := make([]string, n)
	for i := range exprs {
		if i%2 == 0 {
			exprs[i] = randomTokens(r)
		} else {
			exprs[i] = mutate(r, seeds[r.Intn(len(seeds))])
		}
	}
	want := registerVerdicts(t, exprs)
	bad := 0
	for i, expr := range exprs {
		if got := ourVerdict(i, expr); got != want[i] {
			bad++
			if bad <= 20 {
				t.Errorf("expression %d %q:\n got: %s\nwant: %s", i, expr, got, want[i])
			}
		}
	}
	t.Logf("%d random expressions, %d differ from libpcp", n, bad)
}

// mutate damages a good expression: a byte deleted, duplicated or
// replaced by a token, reaching deeper into the grammar than random
// token sequences do.
func mutate(r *rand.Rand, s string) string {
	if s == "" {
		return s
	}
	tokens := []string{"(", ")", "+", "*", "/", "?", ":", ",", "[x]", "!", "&&", "<", "a", "1", "2.5", `"s"`, "=", " ", "/p/"}
	for n := 1 + r.Intn(2); n > 0; n-- {
		i := r.Intn(len(s))
		switch r.Intn(3) {
		case 0:
			s = s[:i] + s[i+1:]
		case 1:
			s = s[:i] + s[i:i+1] + s[i:]
		default:
			s = s[:i] + tokens[r.Intn(len(tokens))] + s[i:]
		}
		if s == "" {
			return s
		}
	}
	return s
}
