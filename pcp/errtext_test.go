package pcp

// Regenerates testdata/golden/errstr.txt from libpcp and errno_texts.go from
// it; the run that writes the table still tests the old one, so test again.
//go:generate env UPDATE_GOLDEN=1 go test -run ^TestErrorTextMatchesLibpcp$ .

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// strCheckGolden checks a string conversion against libpcp. inputs are the
// harness's standard input, one case each; ours renders one input the way
// testdata/harness/<name>.c prints libpcp's answer for it. Our lines are
// compared with the committed testdata/golden/<name>.txt (always), and the
// golden file with what the harness says now (when it can be built).
// UPDATE_GOLDEN=1 rewrites the golden file from the harness first.
func strCheckGolden(t *testing.T, name string, inputs []string, ours func(in string) string) {
	t.Helper()
	golden := filepath.Join("testdata", "golden", name+".txt")
	harness := filepath.Join("testdata", "harness", name+".c")
	stdin := strings.Join(inputs, "\n") + "\n"
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		out := pcptest.Run(t, stdin, pcptest.Harness(t, harness))
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (UPDATE_GOLDEN=1 creates it from libpcp)", err)
	}
	var got strings.Builder
	for _, in := range inputs {
		got.WriteString(ours(in))
		got.WriteByte('\n')
	}
	t.Run("golden", func(t *testing.T) {
		strDiffLines(t, "gopcp (-) vs libpcp golden (+)", got.String(), string(want))
	})
	t.Run("libpcp", func(t *testing.T) {
		live := pcptest.Run(t, stdin, pcptest.Harness(t, harness))
		strDiffLines(t, "golden (-) vs libpcp now (+)", string(want), live)
	})
}

// strGoldenLines returns the lines of a golden file, for tests that take
// libpcp's answers as data.
func strGoldenLines(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "golden", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func strDiffLines(t *testing.T, what, got, want string) {
	t.Helper()
	g := strings.Split(got, "\n")
	w := strings.Split(want, "\n")
	if len(g) != len(w) {
		t.Errorf("%s: %d lines vs %d", what, len(g), len(w))
	}
	bad := 0
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			if bad++; bad <= 20 {
				t.Errorf("%s, line %d:\n- %q\n+ %q", what, i+1, g[i], w[i])
			}
		}
	}
	if bad > 20 {
		t.Errorf("%s: %d differing lines in all", what, bad)
	}
}

// errStrCodes are the codes whose pmErrStr texts are kept as golden data:
// every errno and a little beyond, every PCP code and its neighbours, the
// SASL range with its known statuses, and the extremes.
func errStrCodes() []int32 {
	var codes []int32
	add := func(lo, hi int32) {
		for c := hi; c >= lo; c-- {
			codes = append(codes, c)
		}
	}
	add(-140, 5)
	add(-12345-120, -12344)
	add(-13400, -13390)
	add(-21450, -21340)
	add(-22350, -22340)
	codes = append(codes, -1000, -4095, -4096, -12343, -12345-200, -12345-1000,
		-12345-8998, -30000, -1<<20, math.MinInt32, math.MinInt32+1, math.MaxInt32, 12345)
	return codes
}

func TestErrorTextMatchesLibpcp(t *testing.T) {
	codes := errStrCodes()
	inputs := make([]string, len(codes))
	for i, c := range codes {
		inputs[i] = strconv.Itoa(int(c))
	}
	strCheckGolden(t, "errstr", inputs, func(in string) string {
		c, _ := strconv.ParseInt(in, 10, 32)
		return in + "\t" + ErrorText(int32(c))
	})
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		writeErrTables(t)
	}
}

// TestErrorTextSweep compares every code from 1 down to below the SASL
// range with libpcp directly; too many to keep as golden data.
func TestErrorTextSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep")
	}
	bin := pcptest.Harness(t, filepath.Join("testdata", "harness", "errstr.c"))
	var in strings.Builder
	var want []string
	for c := int32(1); c >= -23000; c-- {
		s := strconv.Itoa(int(c))
		in.WriteString(s + "\n")
		want = append(want, s+"\t"+ErrorText(c))
	}
	strDiffLines(t, "gopcp (-) vs libpcp (+)", strings.Join(want, "\n")+"\n", pcptest.Run(t, in.String(), bin))
}

// writeErrTables regenerates errno_texts.go from the golden file, which
// holds glibc's strerror and SASL's texts as libpcp passes them on.
func writeErrTables(t *testing.T) {
	errno := map[int]string{}
	sasl := map[int]string{}
	for _, line := range strGoldenLines(t, "errstr") {
		cs, text, _ := strings.Cut(line, "\t")
		c, err := strconv.Atoi(cs)
		if err != nil {
			t.Fatalf("golden line %q", line)
		}
		switch {
		case c < 0 && c > -errTextBase:
			if text != "Unknown error "+strconv.Itoa(-c) {
				errno[-c] = text
			}
		case c < int(errTextNYI) && c-int(errTextNYI) >= errTextSASLLowest:
			if text = strings.TrimPrefix(text, "Authentication - "); text != "undefined error!" {
				sasl[int(errTextNYI)-c] = text
			}
		}
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by TestErrorTextMatchesLibpcp with UPDATE_GOLDEN=1 from\n")
	b.WriteString("// testdata/golden/errstr.txt; DO NOT EDIT.\n\npackage pcp\n\n")
	table := func(doc, name string, m map[int]string) {
		n := 0
		for k := range m {
			n = max(n, k+1)
		}
		fmt.Fprintf(&b, "%s\nvar %s = [%d]string{\n", doc, name, n)
		for k := range n {
			if s, ok := m[k]; ok {
				fmt.Fprintf(&b, "%d: %q,\n", k, s)
			}
		}
		b.WriteString("}\n\n")
	}
	table("// errnoTexts[n] is glibc's strerror(n) where glibc knows n.", "errnoTexts", errno)
	table("// saslTexts[n] is sasl_errstring(-n) where Cyrus SASL knows -n.", "saslTexts", sasl)
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("errno_texts.go", src, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestErrorTextCases(t *testing.T) {
	for _, tc := range []struct {
		code int32
		want string
	}{
		{0, "No error"},
		{1, "No such PMAPI error code (1)"},
		{-2, "No such file or directory"},
		{-134, "Unknown error 134"},
		{-12344, "Unknown error 12344"},
		{int32(ErrPMID), "Unknown or illegal metric identifier"},
		{-12345 - 7, "No such PMAPI error code (-12352)"},
		{int32(ErrNYI), "Functionality not yet implemented"},
		{-21345, "Authentication - generic failure"},
		{-21400, "Authentication - undefined error!"},
		{-22345, "Unknown secure sockets error -22345 (-1001)"},
		{math.MinInt32, "Unknown secure sockets error -2147483648 (-2147462304)"},
	} {
		if got := ErrorText(tc.code); got != tc.want {
			t.Errorf("ErrorText(%d) = %q, want %q", tc.code, got, tc.want)
		}
	}
}

func TestErrorOf(t *testing.T) {
	for _, c := range []int32{0, 1, 42, math.MaxInt32} {
		if err := ErrorOf(c); err != nil {
			t.Errorf("ErrorOf(%d) = %v, want nil", c, err)
		}
	}
	err := fmt.Errorf("fetch: %w", ErrorOf(int32(ErrNoAgent)))
	if !errors.Is(err, ErrNoAgent) {
		t.Errorf("errors.Is(%v, ErrNoAgent) is false", err)
	}
	var pe Error
	if !errors.As(err, &pe) || pe.Code() != int32(ErrNoAgent) {
		t.Errorf("errors.As gave %d", pe)
	}
	if got := err.Error(); got != "fetch: No PMCD agent for domain of request" {
		t.Errorf("wrapped text %q", got)
	}
}

// Every named code must have its own text, not the unknown-code fallback.
func TestErrorTextEveryConstant(t *testing.T) {
	seen := map[Error]bool{}
	for _, e := range errTextPCP {
		code, text := e.Code, e.Text
		if seen[code] {
			t.Errorf("%d: listed twice", code)
		}
		seen[code] = true
		if code.Error() != text || strings.HasPrefix(text, "No such PMAPI") {
			t.Errorf("%d: %q", code, code.Error())
		}
		if !strings.HasPrefix(e.Symbol, "PM_ERR_") || len(e.Symbol) > 22 {
			t.Errorf("%d: symbol %q", code, e.Symbol)
		}
	}
}
