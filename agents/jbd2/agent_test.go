package jbd2

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// copyTree copies the fixture directory src into a new temporary
// directory and returns the copy's path.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "jbd2")
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// testAgent builds an agent on dir with a private cache directory.
func testAgent(t *testing.T, dir, cacheDir string) *pmda.Agent {
	t.Helper()
	a, err := New(Domain, Options{Dir: dir, CacheDir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// values fetches item and renders its values as "inst=value" (or its
// error), in instance order.
func values(t *testing.T, a *pmda.Agent, item uint32) string {
	t.Helper()
	id := pmid(item)
	res, err := a.Fetch(context.Background(), 0, []pcp.PMID{id})
	if err != nil {
		t.Fatal(err)
	}
	set := &res.Sets[0]
	if set.NumVal < 0 {
		return pcp.Error(set.NumVal).Error()
	}
	typ := a.Metric(id).Desc.Type
	var out []string
	for i := range set.Values {
		v := &set.Values[i]
		out = append(out, strings.TrimSpace(pcp.FormatValue(set.ValFmt, typ, v, 0)))
		out[len(out)-1] = itoa(v.Inst) + "=" + out[len(out)-1]
	}
	return strings.Join(out, " ")
}

func itoa(i int32) string { return pcp.AtomStr(pcp.Atom{L: i}, pcp.Type32) }

// instances lists the journals by name, with their numbers.
func instances(t *testing.T, a *pmda.Agent) map[string]int32 {
	t.Helper()
	r, err := a.Instance(context.Background(), 0, pcp.NewInDom(Domain, InDomSerial), pcp.InstNull, "")
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[string]int32)
	for _, e := range r.Entries {
		m[e.Name] = e.Inst
	}
	return m
}

func names(m map[string]int32) []string {
	var n []string
	for k := range m {
		n = append(n, k)
	}
	slices.Sort(n)
	return n
}

// TestNoDirectory: without the journals' directory there are no
// journals and no cache file.
func TestNoDirectory(t *testing.T) {
	cache := t.TempDir()
	a := testAgent(t, filepath.Join(t.TempDir(), "nosuch"), cache)
	if got := values(t, a, 0); got != "-1=0" {
		t.Errorf("njournals: %s", got)
	}
	if got := values(t, a, 1); got != "" {
		t.Errorf("count: %q, want no values", got)
	}
	if got := instances(t, a); len(got) != 0 {
		t.Errorf("instances: %v", got)
	}
	if ents, _ := os.ReadDir(cache); len(ents) != 0 {
		t.Errorf("cache directory has %d files", len(ents))
	}
}

// TestJournals reads the fixture of many journals, with entries PCP's
// agent passes over: hidden ones, a plain file, a directory where the
// info file belongs, a FIFO (which would hold PCP's agent; ours does not
// open it), a journal without the averages line, garbage.
func TestJournals(t *testing.T) {
	dir := copyTree(t, filepath.Join("testdata", "many"))
	if err := os.MkdirAll(filepath.Join(dir, "dirinfo-8", "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "fifo-8"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo-8", "info"), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	a := testAgent(t, dir, cache)
	insts := instances(t, a)
	want := []string{"sda2-8", "sdb1-8", "sde1-8", "sdf1-8", "sdg1-8", "sdh1-8"}
	if got := names(insts); !slices.Equal(got, want) {
		t.Fatalf("instances %v, want %v", got, want)
	}
	if got := values(t, a, 0); got != "-1=6" {
		t.Errorf("njournals: %s", got)
	}
	// One value per journal, by name.
	by := func(item uint32) map[string]string {
		m := make(map[string]string)
		for _, f := range strings.Fields(values(t, a, item)) {
			inst, v, _ := strings.Cut(f, "=")
			for n, i := range insts {
				if itoa(i) == inst {
					m[n] = v
				}
			}
		}
		return m
	}
	checks := []struct {
		item    uint32
		journal string
		want    string // "" for no value
	}{
		{1, "sda2-8", "5873"},
		{2, "sda2-8", "20417"},
		{2, "sdb1-8", ""}, // the older header has no requests
		{5, "sdb1-8", ""},
		{14, "sdb1-8", ""},
		{5, "sda2-8", "61251"}, // 3ms times 20417 requests
		{3, "sdb1-8", "2048"},
		{4, "sdb1-8", "62"},       // 2ms times 31
		{6, "sda2-8", "23022160"}, // 3920ms times 5873
		{12, "sdb1-8", "6355"},    // 205 handles times 31
		{19, "sda2-8", "21873"},   // microseconds, as given
		{20, "sde1-8", "0"},       // cut short before it
		{13, "sde1-8", "6"},       // read before the cut
		{3, "sdf1-8", "5"},        // 4294967301 cut to 32 bits
		{1, "sdf1-8", "18446744073709551615"},
		{2, "sdf1-8", "18446744073709551613"}, // -3, as strtoull gives it
		{4, "sdf1-8", "7"},                    // (2^64-7)(2^64-1) wraps to 7
		{13, "sdf1-8", "4294967289"},          // 2^64-7 cut to 32 bits
		{15, "sdf1-8", "4294967295"},          // overflow is the largest value, cut
		{7, "sdf1-8", "18446744069414584319"}, // +4294967297 times 2^64-1
		{2, "sdg1-8", ""},
		{13, "sdg1-8", "3"},
		{20, "sdh1-8", "8"},
		{15, "sdh1-8", "0"}, // its line ends at a NUL
	}
	for _, c := range checks {
		got, ok := by(c.item)[c.journal]
		if c.want == "" {
			if ok {
				t.Errorf("item %d of %s: %s, want no value", c.item, c.journal, got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("item %d of %s: %q, want %s", c.item, c.journal, got, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(cache, "122.0")); err != nil {
		t.Errorf("no cache file: %v", err)
	}
}

// TestVanish: a journal that goes away leaves the instance domain and
// comes back with its number, also to a new agent reading the cache
// file; a journal that becomes garbage leaves too.
func TestVanish(t *testing.T) {
	dir := copyTree(t, filepath.Join("testdata", "many"))
	cache := t.TempDir()
	a := testAgent(t, dir, cache)
	first := instances(t, a)
	if len(first) != 6 {
		t.Fatalf("instances %v", first)
	}
	info := filepath.Join(dir, "sda2-8", "info")
	saved, err := os.ReadFile(info)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "sda2-8")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sdb1-8", "info"), []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := names(instances(t, a)); !slices.Equal(got, []string{"sde1-8", "sdf1-8", "sdg1-8", "sdh1-8"}) {
		t.Errorf("after removal: %v", got)
	}
	if got := values(t, a, 0); got != "-1=4" {
		t.Errorf("njournals: %s", got)
	}
	// A fetch by the vanished number is an instance error.
	res, err := a.Fetch(context.Background(), 0, []pcp.PMID{pmid(1)})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range res.Sets[0].Values {
		if v.Inst == first["sda2-8"] || v.Inst == first["sdb1-8"] {
			t.Errorf("value for vanished instance %d", v.Inst)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "new-8"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "new-8", "info"), saved, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "sda2-8"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(info, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	back := instances(t, a)
	if back["sda2-8"] != first["sda2-8"] {
		t.Errorf("sda2-8 came back as %d, was %d", back["sda2-8"], first["sda2-8"])
	}
	if back["new-8"] != 6 {
		t.Errorf("new-8 is %d, want 6 (after the six numbered first)", back["new-8"])
	}
	b := testAgent(t, dir, cache)
	again := instances(t, b)
	for n, i := range back {
		if again[n] != i {
			t.Errorf("a new agent numbers %s %d, the cache file %d", n, again[n], i)
		}
	}
}

// TestConcurrent runs fetches and instance requests at once (for -race).
func TestConcurrent(t *testing.T) {
	a := testAgent(t, copyTree(t, filepath.Join("testdata", "many")), t.TempDir())
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if _, err := a.Fetch(context.Background(), 0, []pcp.PMID{pmid(0), pmid(1), pmid(14)}); err != nil {
					t.Error(err)
					return
				}
				if _, err := a.Instance(context.Background(), 0, pcp.NewInDom(Domain, InDomSerial), pcp.InstNull, ""); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestDescriptorsAndHelp: every metric has one-line and full help, and
// the agent answers no namespace requests, as PCP's.
func TestDescriptorsAndHelp(t *testing.T) {
	a := testAgent(t, t.TempDir(), t.TempDir())
	ctx := context.Background()
	for _, m := range Metrics() {
		for _, kind := range []int32{pdu.TextOneLine, pdu.TextHelp} {
			if s, err := a.Text(ctx, 0, uint32(m.Desc.PMID), pdu.TextPMID|kind); err != nil || s == "" {
				t.Errorf("%s: no help (%v)", m.Name, err)
			}
		}
	}
	in := pcp.NewInDom(Domain, InDomSerial)
	if s, err := a.Text(ctx, 0, uint32(in), pdu.TextInDom|pdu.TextOneLine); err != nil || s == "" {
		t.Errorf("instance domain: no help (%v)", err)
	}
	if len(Metrics()) != 23 {
		t.Errorf("%d metrics, PCP's agent has 23", len(Metrics()))
	}
}
