package fetchgroup

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmapi"
)

// TestEverySampleMetric extends a fetchgroup with every metric of PCP's
// sample agent as a whole instance domain, in every output type, with the
// scales "instant", "" and a units expression, and compares one fetch of
// them through libpcp and through this package. libpcp's harness runs
// twice: a handle's block that is the same in both runs must be the same
// in ours; one that differs (values that move on their own) must have the
// same status as one of them; rates are compared by shape (statuses and
// instances) alone.
func TestEverySampleMetric(t *testing.T) {
	bin := pcptest.Harness(t, "testdata/harness/fetchgroup.c")
	bed := testbed.StartPMCD(t, testbed.Options{})
	ctx := context.Background()
	c, err := pmapi.NewHostContext(ctx, bed.Host())
	if err != nil {
		t.Fatal(err)
	}
	names, err := c.Traverse(ctx, "sample")
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	// Two kinds of metric cannot be compared this way. sample.wrap.*
	// step through a cycle of four values, one step per fetch by any
	// client, so libpcp's two runs agree with each other and not with a
	// run between them. And libpcp's string-to-number conversion
	// (__pmStringValue) tests errno after strtol without clearing it, so
	// converting a string such as sample.string.bin's after some earlier
	// conversion failed with ERANGE reports ERANGE again; ours converts
	// the string alone. Both are covered by TestAgainstLibpcp's scripts.
	names = slices.DeleteFunc(names, func(n string) bool {
		return strings.HasPrefix(n, "sample.wrap.") || n == "sample.string.bin" || n == "sample.string.null"
	})
	var script strings.Builder
	for _, n := range names {
		for _, typ := range []string{"32", "u32", "64", "u64", "float", "double", "string"} {
			fmt.Fprintf(&script, "indom %s instant %s 100\n", n, typ)
		}
		fmt.Fprintf(&script, "indom %s - double 100\n", n)
		fmt.Fprintf(&script, "indom %s kbyte u64 100\n", n)
		fmt.Fprintf(&script, "indom %s count/sec double 100\n", n)
	}
	script.WriteString("fetch\nfetch\n")
	run := func() string {
		res := bed.RunInput([]byte(script.String()), bin, "host", bed.Host())
		if res.Err != nil {
			t.Fatalf("harness: %v\n%s", res.Err, res.Stderr)
		}
		return res.Stdout
	}
	a := run()
	g, err := Create(ctx, pmapi.KindHost, bed.Host())
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ours := runScript(t, g, script.String(), nil)
	b := run()
	// which script line made each handle
	var made []string
	lines := strings.Split(script.String(), "\n")
	k := 0
	for _, l := range strings.Split(ours, "\n") {
		if !strings.HasPrefix(l, "extend ") {
			continue
		}
		if strings.HasSuffix(l, " 0") {
			made = append(made, lines[k])
		}
		k++
	}
	what := func(block string) string {
		var h int
		if _, err := fmt.Sscanf(block, "h%d", &h); err == nil && h < len(made) {
			return made[h] + "\n"
		}
		return ""
	}
	// Rates depend on when each program fetched (a seconds counter may
	// tick between one program's two fetches and not the other's): for
	// them only the shape of a block, statuses and instances, counts.
	rate := func(block string) bool {
		f := strings.Fields(what(block))
		return len(f) > 2 && (f[2] == "-" || f[2] == "count/sec")
	}
	ab, bb, ob := blocks(a), blocks(b), blocks(ours)
	if len(ab) != len(ob) || len(bb) != len(ob) {
		t.Fatalf("%d, %d blocks from libpcp, %d from gopcp", len(ab), len(bb), len(ob))
	}
	same, moving, bad := 0, 0, 0
	for i := range ab {
		switch {
		case rate(ab[i]):
			moving++
			want, got := shape(ab[i]), shape(ob[i])
			if want != shape(bb[i]) { // instances that come and go
				want, got = status(ab[i]), status(ob[i])
			}
			if got != want {
				bad++
				if bad <= 10 {
					t.Errorf("%slibpcp:\n%s%s\ngopcp:\n%s", what(ab[i]), ab[i], bb[i], ob[i])
				}
			}
		case ab[i] == bb[i]:
			same++
			if ob[i] != ab[i] {
				bad++
				if bad <= 10 {
					t.Errorf("%slibpcp (twice):\n%sgopcp:\n%s", what(ab[i]), ab[i], ob[i])
				}
			}
		default:
			moving++
			if status(ob[i]) != status(ab[i]) && status(ob[i]) != status(bb[i]) {
				bad++
				if bad <= 10 {
					t.Errorf("%slibpcp:\n%s%s\ngopcp:\n%s", what(ab[i]), ab[i], bb[i], ob[i])
				}
			}
		}
	}
	t.Logf("%d metrics, %d blocks: %d stable, %d moving, %d differ", len(names), len(ab), same, moving, bad)
}

// blocks splits a transcript into its top-level lines, each with the
// indented lines that follow it.
func blocks(s string) []string {
	var out []string
	for _, line := range strings.SplitAfter(s, "\n") {
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, " ") && len(out) > 0 {
			out[len(out)-1] += line
			continue
		}
		out = append(out, line)
	}
	return out
}

// status is the first line of a block up to its status code.
func status(block string) string {
	f := strings.Fields(block)
	if len(f) < 3 {
		return block
	}
	return strings.Join(f[:3], " ")
}

// shape is a block without its values: the status and count, and each
// instance's number, name and status.
func shape(block string) string {
	var b strings.Builder
	for _, line := range strings.Split(block, "\n") {
		f := strings.Fields(line)
		if len(f) > 3 {
			f = f[:len(f)-1]
		}
		b.WriteString(strings.Join(f, " "))
		b.WriteByte('\n')
	}
	return b.String()
}
