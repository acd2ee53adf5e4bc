package mmv

import (
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readDecoded(t testing.TB, path string) *decoded {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := decodeFile(b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return d
}

// TestValidation checks every input against PCP's rules, each refusal
// carrying the PCP error code libpcp_mmv would set.
func TestValidation(t *testing.T) {
	dir := t.TempDir()
	long := func(n int) string { return "a" + strings.Repeat("b", n-1) }
	cases := []struct {
		name string
		do   func(r *Registry) error
		want error
	}{
		{"name ok", func(r *Registry) error { _, err := r.Counter("a.b_c.D9", MetricOptions{}); return err }, nil},
		{"empty name", func(r *Registry) error { _, err := r.Counter("", MetricOptions{}); return err }, ErrInvalid},
		{"digit first", func(r *Registry) error { _, err := r.Counter("9a", MetricOptions{}); return err }, ErrInvalid},
		{"dot first", func(r *Registry) error { _, err := r.Counter(".a", MetricOptions{}); return err }, ErrInvalid},
		{"hyphen", func(r *Registry) error { _, err := r.Counter("a-b", MetricOptions{}); return err }, ErrInvalid},
		{"empty component", func(r *Registry) error { _, err := r.Counter("a..b", MetricOptions{}); return err }, ErrInvalid},
		{"trailing dot", func(r *Registry) error { _, err := r.Counter("a.", MetricOptions{}); return err }, ErrInvalid},
		{"255 bytes", func(r *Registry) error { _, err := r.Counter(long(255), MetricOptions{}); return err }, nil},
		{"256 bytes", func(r *Registry) error { _, err := r.Counter(long(256), MetricOptions{}); return err }, ErrTooBig},
		{"duplicate name", func(r *Registry) error {
			r.Counter("dup", MetricOptions{})
			_, err := r.Counter("dup", MetricOptions{})
			return err
		}, ErrExists},
		{"item too big", func(r *Registry) error { _, err := r.Counter("a", MetricOptions{Item: 1024}); return err }, ErrRange},
		{"item max", func(r *Registry) error { _, err := r.Counter("a", MetricOptions{Item: 1023}); return err }, nil},
		{"duplicate item", func(r *Registry) error {
			r.Counter("a", MetricOptions{Item: 5})
			_, err := r.Counter("b", MetricOptions{Item: 5})
			return err
		}, ErrExists},
		{"bad type", func(r *Registry) error { _, err := r.AddMetric("a", Type(7), SemInstant, MetricOptions{}); return err }, ErrInvalid},
		{"bad semantics", func(r *Registry) error { _, err := r.AddMetric("a", Int32, Semantics(2), MetricOptions{}); return err }, ErrInvalid},
		{"help 256 bytes", func(r *Registry) error {
			_, err := r.Counter("a", MetricOptions{ShortHelp: strings.Repeat("h", 256)})
			return err
		}, ErrTooBig},
		{"help 255 bytes", func(r *Registry) error {
			_, err := r.Counter("a", MetricOptions{LongHelp: strings.Repeat("h", 255)})
			return err
		}, nil},
		{"serial too big", func(r *Registry) error { _, err := r.AddInDom(nil, InDomOptions{Serial: 2048}); return err }, ErrRange},
		{"duplicate serial", func(r *Registry) error {
			r.AddInDom(nil, InDomOptions{Serial: 3})
			_, err := r.AddInDom(nil, InDomOptions{Serial: 3})
			return err
		}, ErrExists},
		{"empty instance", func(r *Registry) error { _, err := r.AddInDom([]Instance{{ID: 1}}, InDomOptions{}); return err }, ErrInvalid},
		{"instance 256 bytes", func(r *Registry) error {
			_, err := r.AddInDom([]Instance{{ID: 1, Name: long(256)}}, InDomOptions{})
			return err
		}, ErrTooBig},
		{"duplicate instance id", func(r *Registry) error {
			_, err := r.AddInDom([]Instance{{ID: 1, Name: "a"}, {ID: 1, Name: "b"}}, InDomOptions{})
			return err
		}, ErrExists},
		{"duplicate instance name", func(r *Registry) error {
			_, err := r.AddInDom([]Instance{{ID: 1, Name: "a"}, {ID: 2, Name: "a"}}, InDomOptions{})
			return err
		}, ErrExists},
		{"foreign indom", func(r *Registry) error {
			other, _ := New("other", Options{Dir: dir})
			d, _ := other.AddInDom(nil, InDomOptions{})
			_, err := r.CounterVec("a", d, MetricOptions{})
			return err
		}, ErrNoInDom},
		{"vec without indom", func(r *Registry) error { _, err := r.CounterVec("a", nil, MetricOptions{}); return err }, ErrNoInDom},
		{"label ok", func(r *Registry) error {
			_, err := r.Counter("a", MetricOptions{Labels: []Label{StringLabel("x_1", "v"), NumberLabel("n", 2.5)}})
			return err
		}, nil},
		{"label name with dot", func(r *Registry) error {
			_, err := r.Counter("a", MetricOptions{Labels: []Label{StringLabel("x.y", "v")}})
			return err
		}, ErrInvalid},
		{"label value not JSON", func(r *Registry) error {
			_, err := r.Counter("a", MetricOptions{Labels: []Label{{Name: "x", Value: "bare"}}})
			return err
		}, ErrInvalid},
		{"label at the size limit", func(r *Registry) error {
			// name 1 + value 238 + 5 = 244, libpcp_mmv's limit
			_, err := r.Counter("a", MetricOptions{Labels: []Label{{Name: "x", Value: `"` + strings.Repeat("v", 236) + `"`}}})
			return err
		}, nil},
		{"label over the size limit", func(r *Registry) error {
			_, err := r.Counter("a", MetricOptions{Labels: []Label{{Name: "x", Value: `"` + strings.Repeat("v", 237) + `"`}}})
			return err
		}, ErrTooBig},
		{"histogram bounds", func(r *Registry) error {
			_, err := r.Histogram("h", HistogramOptions{Bounds: []float64{2, 1}})
			return err
		}, ErrInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := New("reg", Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			err = c.do(r)
			if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			var e *Error
			if err != nil && !errors.As(err, &e) {
				t.Fatalf("%v is not an *mmv.Error", err)
			}
		})
	}
}

func TestNewValidation(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		reg  string
		o    Options
		want error
	}{
		{"reg", Options{Dir: dir, Cluster: MaxCluster}, nil},
		{"a-b", Options{Dir: dir}, ErrInvalid},
		{"reg", Options{}, ErrInvalid},
		{"reg", Options{Dir: dir, Cluster: MaxCluster + 1}, ErrRange},
		{"reg", Options{Dir: dir, Flags: 8}, ErrInvalid},
		{"reg", Options{Dir: dir, Labels: []Label{{Name: "1x", Value: "1"}}}, ErrInvalid},
	} {
		_, err := New(c.reg, c.o)
		if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("New(%q, %+v) = %v, want %v", c.reg, c.o, err, c.want)
		}
	}
}

// TestVersionChoice: 1 by default, 2 for a name of 64 bytes or more
// (metric or instance), 3 when any label is present, as libpcp_mmv.
func TestVersionChoice(t *testing.T) {
	dir := t.TempDir()
	name63, name64 := "m"+strings.Repeat("x", 62), "m"+strings.Repeat("x", 63)
	for _, c := range []struct {
		name string
		add  func(r *Registry)
		want int
	}{
		{"plain", func(r *Registry) { r.Counter("a", MetricOptions{}) }, 1},
		{"63-byte name", func(r *Registry) { r.Counter(name63, MetricOptions{}) }, 1},
		{"64-byte name", func(r *Registry) { r.Counter(name64, MetricOptions{}) }, 2},
		{"64-byte instance", func(r *Registry) { r.AddInDom([]Instance{{ID: 1, Name: name64}}, InDomOptions{}) }, 2},
		{"metric label", func(r *Registry) { r.Counter("a", MetricOptions{Labels: []Label{NumberLabel("x", 1)}}) }, 3},
		{"instance label", func(r *Registry) {
			r.AddInDom([]Instance{{ID: 1, Name: "i", Labels: []Label{NumberLabel("x", 1)}}}, InDomOptions{})
		}, 3},
		{"indom label", func(r *Registry) { r.AddInDom(nil, InDomOptions{Labels: []Label{NumberLabel("x", 1)}}) }, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, _ := New("v", Options{Dir: t.TempDir()})
			c.add(r)
			if err := r.Start(); err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if got := readDecoded(t, r.Path()).Version; got != c.want {
				t.Errorf("version %d, want %d", got, c.want)
			}
		})
	}
	r, _ := New("v", Options{Dir: dir, Labels: []Label{NumberLabel("x", 1)}})
	if r.Version() != 3 {
		t.Errorf("registry label: version %d, want 3", r.Version())
	}
}

// TestDerivedItemsDoNotCollide registers two names whose hashes collide in
// 10 bits (where Speed would give both one item and pmdammv would drop
// one): both get items, different ones, and an explicit item already
// derived is refused.
func TestDerivedItemsDoNotCollide(t *testing.T) {
	hash := func(s string) uint32 { h := fnv.New32a(); h.Write([]byte(s)); return h.Sum32() & MaxItem }
	seen := map[uint32]string{}
	var a, b string
	for i := 0; a == ""; i++ {
		n := "m" + itoa(i)
		if prev, ok := seen[hash(n)]; ok {
			a, b = prev, n
		}
		seen[hash(n)] = n
	}
	r, _ := New("ids", Options{Dir: t.TempDir()})
	ma, err := r.AddMetric(a, Uint64, SemCounter, MetricOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mb, err := r.AddMetric(b, Uint64, SemCounter, MetricOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ma.Item() != hash(a) || mb.Item() == ma.Item() {
		t.Errorf("items %d and %d for %s and %s (hash %d)", ma.Item(), mb.Item(), a, b, hash(a))
	}
	if _, err := r.AddMetric("explicit", Uint64, SemCounter, MetricOptions{Item: mb.Item()}); !errors.Is(err, ErrExists) {
		t.Errorf("explicit item colliding with a derived one: %v", err)
	}
}

// TestClusterChoice: a derived cluster steps past clusters other MMV
// files in the directory claim; a given one that another file claims is
// refused (pmdammv would serve only one of the two).
func TestClusterChoice(t *testing.T) {
	dir := t.TempDir()
	first, _ := New("first", Options{Dir: dir})
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	c := first.Cluster()
	if c == 0 || c > MaxCluster {
		t.Fatalf("derived cluster %d", c)
	}
	if got := readDecoded(t, first.Path()).Cluster; got != c {
		t.Fatalf("header cluster %d, want %d", got, c)
	}
	dup, _ := New("dup", Options{Dir: dir, Cluster: c})
	if err := dup.Start(); !errors.Is(err, ErrExists) {
		t.Errorf("given cluster already claimed: %v", err)
	}
	// Another name hashing to the same cluster steps past it.
	target := deriveCluster("first", nil)
	var other string
	for i := 0; other == ""; i++ {
		if n := "n" + itoa(i); deriveCluster(n, nil) == target {
			other = n
		}
	}
	o, _ := New(other, Options{Dir: dir})
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if o.Cluster() == c {
		t.Errorf("%s took cluster %d, already claimed by first", other, c)
	}
	// Restarting under the same name may take its own cluster again.
	again, _ := New("first", Options{Dir: dir, Cluster: c})
	if err := again.Start(); err != nil {
		t.Errorf("restart with own cluster: %v", err)
	}
	again.Close()
}

// TestCloseRemovesProcessFile: with the Process flag Close removes the
// file, as libpcp_mmv's mmv_stats_free does; without it the file stays.
func TestCloseRemovesProcessFile(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		flags Flags
		stays bool
	}{{Process, false}, {0, true}} {
		r, _ := New("p", Options{Dir: dir, Flags: c.flags})
		cnt, _ := r.Counter("c", MetricOptions{})
		r.Start()
		cnt.Add(4)
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		_, err := os.Stat(filepath.Join(dir, "p"))
		if stays := err == nil; stays != c.stays {
			t.Errorf("flags %#x: file stays %v, want %v", c.flags, stays, c.stays)
		}
		cnt.Inc() // goes nowhere, harmlessly
		if c.stays && readDecoded(t, filepath.Join(dir, "p")).Metrics[0].Values[0].Atom != 4 {
			t.Errorf("value after Close not kept")
		}
		if cnt.Load() != 5 {
			t.Errorf("handle after Close: %d", cnt.Load())
		}
	}
}

// TestUpdatesBeforeStartCarried: values set before Start are in the file.
func TestUpdatesBeforeStartCarried(t *testing.T) {
	r, _ := New("early", Options{Dir: t.TempDir()})
	c, _ := r.Counter("c", MetricOptions{})
	g, _ := r.Gauge("g", MetricOptions{})
	s, _ := r.Text("s", MetricOptions{})
	c.Add(7)
	g.Set(1.25)
	s.Set("early")
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := readDecoded(t, r.Path()).print("")
	want := "c = 7\ng = 1.25\ns = \"early\"\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestFailedRewriteKeepsValues: when a rewrite cannot put its file in
// place (here the name is taken by a directory), the addition is refused,
// the old file stays, and every handle keeps its value and its updates.
func TestFailedRewriteKeepsValues(t *testing.T) {
	dir := t.TempDir()
	r, _ := New("fail", Options{Dir: dir})
	c, _ := r.Counter("c", MetricOptions{})
	g, _ := r.Gauge("g", MetricOptions{})
	s, _ := r.Text("s", MetricOptions{})
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c.Add(5)
	g.Set(2)
	s.Set("kept")
	// Move the live file aside and put a non-empty directory in its place.
	aside := filepath.Join(dir, "aside")
	if err := os.Rename(r.Path(), aside); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(r.Path(), "x"), 0o755)
	if _, err := r.Counter("more", MetricOptions{}); err == nil {
		t.Fatal("rewrite over a directory succeeded")
	}
	c.Inc()
	if c.Load() != 6 || g.Load() != 2 || s.Load() != "kept" {
		t.Fatalf("after the failed rewrite: %d %v %q", c.Load(), g.Load(), s.Load())
	}
	if got := readDecoded(t, aside).print(""); got != "c = 6\ng = 2\ns = \"kept\"\n" {
		t.Errorf("the live file after the failed rewrite:\n%s", got)
	}
	os.RemoveAll(r.Path())
	if _, err := r.Counter("more", MetricOptions{}); err != nil {
		t.Fatal(err)
	}
	c.Inc()
	if got := readDecoded(t, r.Path()).print(""); got != "c = 7\ng = 2\nmore = 0\ns = \"kept\"\n" {
		t.Errorf("after a rewrite that worked:\n%s", got)
	}
}
