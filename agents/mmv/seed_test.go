package mmv

import (
	"os"
	"strings"
	"testing"

	gommv "github.com/gopcp/gopcp/mmv"
)

// writeSeed writes a registry with an instance domain, strings and
// (long) names or labels, and returns its bytes.
func writeSeed(t testing.TB, dir string, long, labels bool) []byte {
	t.Helper()
	o := gommv.Options{Dir: dir, Flags: gommv.Sentinel}
	if labels {
		o.Labels = []gommv.Label{gommv.StringLabel("app", "x")}
	}
	r, err := gommv.New("seed", o)
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.AddInDom([]gommv.Instance{{ID: 1, Name: "a"}, {ID: 2, Name: "b"}}, gommv.InDomOptions{ShortHelp: "d"})
	if err != nil {
		t.Fatal(err)
	}
	name := "c"
	if long {
		name = strings.Repeat("n", 80)
	}
	if _, err := r.CounterVec(name, d, gommv.MetricOptions{ShortHelp: "c", LongHelp: "counts"}); err != nil {
		t.Fatal(err)
	}
	s, _ := r.Text("s", gommv.MetricOptions{})
	tm, _ := r.Timer("t", gommv.MetricOptions{})
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	s.Set("hello")
	tm.Start()
	b, err := os.ReadFile(r.Path())
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	return b
}

// writeGood is the bytes of a file with one counter, mmv.good.first when
// named good.
func writeGood(t testing.TB) []byte {
	t.Helper()
	dir := t.TempDir()
	r, err := gommv.New("good", gommv.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Counter("first", gommv.MetricOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := os.ReadFile(r.Path())
	if err != nil {
		t.Fatal(err)
	}
	return b
}
