package series

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseExpr(t *testing.T) {
	now := func() time.Time { return time.Unix(1000000, 0) }
	cases := []struct {
		in    string
		canon string // canonical text ("" for an error)
		win   bool
		err   string
	}{
		{in: "kernel.all.load", canon: "kernel.all.load"},
		{in: `a.b{c:"d"}`, canon: `a.b{c~~"d"}`},
		{in: `a.b{c=="d",e!=1 || f=~"^g"}[samples:2]`, canon: `a.b{c=="d"&&e!="1"||f=~^g}`, win: true},
		{in: `rate(a[count:3])`, canon: "rate(a)", win: true},
		{in: `rescale(rate(a), "Kbyte/sec")`, canon: `rescale(rate(a),"Kbyte/sec")`},
		{in: `topk_inst(a, 3) + 2 * b`, canon: "topk_inst(a, 3)+2*b"},
		{in: `log(a,2.5) / sqrt(b) - abs(c)`, canon: "log(a,2.5)/sqrt(b)-abs(c)"},
		{in: `x = max_sample(a)`, canon: "max_sample(a)"},
		{in: `a[tz:"UTC",align:"@10:00",offset:2,interval:"1min",start:100,finish:200]`, canon: "a", win: true},
		{in: `a[10min]`, canon: "a", win: true},
		{in: `a[samples:2] + b[samples:2]`, canon: "a+b", win: true},
		{in: "", err: "cannot parse given string"},
		{in: "[samples:2]", err: "Invalid series query specification"},
		{in: "a[samples:2] + b", err: "^ -- syntax error"},
		{in: "a + 2", err: "syntax error"},
		{in: "2 * 3", err: "syntax error"},
		{in: "count(a)", err: "syntax error"},
		{in: "a{b=='c'}", err: "syntax error"},
		{in: `rescale(a, "bogus")`, err: "syntax error"},
		{in: `nth_percentile_inst(a, 101)`, err: "syntax error"},
		{in: `a[samples:2] + a[samples:3]`, err: `Invalid second sample count requested - "3" vs "2"`},
		{in: `a[interval:2] + a[interval:3]`, err: `Invalid second time delta requested - "2" vs "3"`},
		{in: `a[start:"bogus"]`, err: "Cannot parse time with __pmParseHighResTime"},
		{in: `a[interval:"2 fortnights"]`, err: "Cannot parse time delta with pmParseHighResInterval"},
		{in: "a[samples:99999999999]", err: "syntax error"},
		{in: strings.Repeat("rate(", maxDepth+1) + "a" + strings.Repeat(")", maxDepth+1), err: "syntax error"},
		{in: strings.Repeat("a", MaxQueryLen+1), err: "too long"},
	}
	for _, c := range cases {
		p, err := parseExprAt(c.in, now, time.UTC)
		if c.err != "" {
			var qe *QueryError
			if err == nil || !errors.As(err, &qe) || !strings.Contains(qe.Msg, c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := canonical(p.Root, nil); got != c.canon {
			t.Errorf("%q: canonical %q, want %q", c.in, got, c.canon)
		}
		if (p.Window != nil) != c.win {
			t.Errorf("%q: window %+v", c.in, p.Window)
		}
	}
}

// TestSyntaxCaret checks the caret's place under libpcp_web's points:
// the token reading stopped at, the last byte for an unexpected end.
func TestSyntaxCaret(t *testing.T) {
	for _, c := range []struct {
		in  string
		pos int
	}{
		{"rate(a", 5},
		{"a{b=~1}", 5},
		{"a[samples:", 9},
		{"a + b[samples:2]", 5},
		{"a\t{b==}", 6},
	} {
		_, err := ParseExpr(c.in)
		var qe *QueryError
		if !errors.As(err, &qe) {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		lines := strings.Split(qe.Msg, "\n")
		caret := lines[3]
		if i := strings.Index(caret, "^"); i != c.pos {
			t.Errorf("%q: caret at %d, want %d:\n%s", c.in, i, c.pos, qe.Msg)
		}
		if c.in == "a\t{b==}" && !strings.HasPrefix(caret, " \t") {
			t.Errorf("%q: the tab is not kept under itself: %q", c.in, caret)
		}
	}
}

func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{
		"a.b", `rate(a{b:"c"}[samples:3]) * 2.5`, `topk_inst(a, 2) + nth_percentile_sample(b, 50)`,
		`{x=="y" || z!=1}[start:"-1h",finish:100,interval:"10s",tz:"UTC"]`, "x = a[10min]",
		`rescale(a, "Kbyte / sec")`, "a[", "a{", `"`, "!", "1.2.3", "a + 3 * b - c / d",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parseExprAt(s, func() time.Time { return time.Unix(1e9, 0) }, time.UTC)
		if err != nil {
			var qe *QueryError
			if !errors.As(err, &qe) || qe.Msg == "" {
				t.Fatalf("%q: error %v is not a QueryError with a message", s, err)
			}
			return
		}
		if p.Root == nil {
			t.Fatalf("%q: accepted with no expression", s)
		}
		canonical(p.Root, nil)
	})
}
