package mmvfile

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/mmv"
)

// written builds a registry with package mmv in a temporary directory and
// returns the file's bytes. long makes one name 64 bytes or more (version
// 2), labels adds labels at every level (version 3).
func written(t testing.TB, long, labels bool) []byte {
	t.Helper()
	dir := t.TempDir()
	var o mmv.Options
	o.Dir, o.Cluster, o.Flags = dir, 42, mmv.Sentinel
	if labels {
		o.Labels = []mmv.Label{mmv.StringLabel("app", "acme")}
	}
	r, err := mmv.New("acme", o)
	if err != nil {
		t.Fatal(err)
	}
	insts := []mmv.Instance{{ID: 1, Name: "Anvils"}, {ID: 7, Name: "Rockets"}}
	var dl []mmv.Label
	if labels {
		insts[1].Labels = []mmv.Label{mmv.NumberLabel("weight", 7)}
		dl = []mmv.Label{mmv.StringLabel("kind", "product")}
	}
	d, err := r.AddInDom(insts, mmv.InDomOptions{Serial: 3, ShortHelp: "products", Labels: dl})
	if err != nil {
		t.Fatal(err)
	}
	name := "products.count"
	if long {
		name = "products." + strings.Repeat("x", 70)
	}
	var ml []mmv.Label
	if labels {
		ml = []mmv.Label{mmv.StringLabel("unit", "things")}
	}
	c, err := r.AddMetric(name, mmv.Uint64, mmv.SemCounter, mmv.MetricOptions{Item: 7, InDom: d, ShortHelp: "made", LongHelp: "how many made", Labels: ml})
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.AddMetric("status", mmv.String, mmv.SemDiscrete, mmv.MetricOptions{Item: 8})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	c.Instance(7).Set(99)
	s.Value().SetString("ok")
	b, err := os.ReadFile(r.Path())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseWritten(t *testing.T) {
	for _, tc := range []struct {
		long, labels bool
		version      int32
	}{{false, false, 1}, {true, false, 2}, {false, true, 3}} {
		f, err := Parse(written(t, tc.long, tc.labels), Limits{})
		if err != nil {
			t.Fatalf("version %d: %v", tc.version, err)
		}
		if f.Version != tc.version || f.Cluster != 42 || f.Flags != mmv.Sentinel {
			t.Errorf("header %d/%d/%v, want %d/42/sentinel", f.Version, f.Cluster, f.Flags, tc.version)
		}
		if len(f.InDoms) != 1 || f.InDoms[0].Serial != 3 || len(f.Instances) != 2 || f.Instances[1].External != "Rockets" || f.Instances[1].Internal != 7 {
			t.Errorf("version %d: indoms %+v instances %+v", tc.version, f.InDoms, f.Instances)
		}
		if len(f.Metrics) != 2 || f.Metrics[0].Item != 7 || f.Metrics[0].Type != mmv.Uint64 || f.Metrics[1].Name != "status" {
			t.Fatalf("version %d: metrics %+v", tc.version, f.Metrics)
		}
		if tc.long != (len(f.Metrics[0].Name) > 64) {
			t.Errorf("version %d: name %q", tc.version, f.Metrics[0].Name)
		}
		if s, err := f.String(f.Metrics[0].ShortText); s != "made" || err != nil {
			t.Errorf("version %d: shorttext %q, %v", tc.version, s, err)
		}
		got := map[string]uint64{}
		for _, v := range f.Values {
			atom, extra := f.Value(v)
			key := ""
			for _, in := range f.Instances {
				if uint64(in.Offset) == v.Instance {
					key = in.External
				}
			}
			for _, m := range f.Metrics {
				if uint64(m.Offset) == v.Metric && m.Type == mmv.String {
					s, err := f.String(uint64(extra))
					if s != "ok" || err != nil {
						t.Errorf("version %d: string value %q, %v", tc.version, s, err)
					}
					key = "status"
				}
			}
			got[key] = atom
		}
		if len(got) != 3 || got["Rockets"] != 99 || got["Anvils"] != 0 {
			t.Errorf("version %d: values %v", tc.version, got)
		}
		if tc.labels != (len(f.Labels) == 4) {
			t.Errorf("version %d: labels %+v", tc.version, f.Labels)
		}
	}
}

// qaFiles are the MMV files of PCP's QA suite, written by other
// libraries (Parfait, the Python binding, a keyboard reader).
func qaFiles(t testing.TB) map[string][]byte {
	t.Helper()
	if _, err := exec.LookPath("xz"); err != nil {
		pcptest.Missing(t, "xz is not installed")
	}
	names, _ := filepath.Glob("testdata/*.xz")
	files := map[string][]byte{}
	for _, n := range names {
		out, err := exec.Command("xz", "-dc", n).Output()
		if err != nil {
			t.Fatalf("xz %s: %v", n, err)
		}
		files[strings.TrimSuffix(filepath.Base(n), ".xz")] = out
	}
	if len(files) == 0 {
		t.Fatal("no testdata/*.xz")
	}
	return files
}

func TestParseQAFiles(t *testing.T) {
	for name, b := range qaFiles(t) {
		f, err := Parse(b, Limits{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		counts := map[int32]int{mmv.TOCInDoms: len(f.InDoms), mmv.TOCInstances: len(f.Instances), mmv.TOCMetrics: len(f.Metrics),
			mmv.TOCValues: len(f.Values), mmv.TOCStrings: len(f.Strings), mmv.TOCLabels: len(f.Labels)}
		for _, toc := range f.TOC {
			if counts[toc.Type] != int(toc.Count) {
				t.Errorf("%s: section %d has %d records, TOC says %d", name, toc.Type, counts[toc.Type], toc.Count)
			}
		}
		if len(f.Metrics) == 0 || len(f.Values) == 0 {
			t.Errorf("%s: %d metrics, %d values", name, len(f.Metrics), len(f.Values))
		}
	}
}

// TestParseRejects breaks a good file in each way pmdammv or a bounded
// reader must refuse, and checks the error.
func TestParseRejects(t *testing.T) {
	good := written(t, true, false) // version 2: names by offset
	f, err := Parse(good, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	tocAt := func(typ int32) int {
		for i, toc := range f.TOC {
			if toc.Type == typ {
				return mmv.HeaderSize + i*mmv.TOCSize
			}
		}
		t.Fatalf("no section %d", typ)
		return 0
	}
	put32 := func(b []byte, at int, v uint32) {
		b[at], b[at+1], b[at+2], b[at+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	put64 := func(b []byte, at int, v uint64) { put32(b, at, uint32(v)); put32(b, at+4, uint32(v>>32)) }
	for _, tc := range []struct {
		name  string
		edit  func(b []byte) []byte
		inFlx bool
	}{
		{"short", func(b []byte) []byte { return b[:39] }, false},
		{"empty", func(b []byte) []byte { return nil }, false},
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, false},
		{"version 0", func(b []byte) []byte { put32(b, 4, 0); return b }, false},
		{"version 4", func(b []byte) []byte { put32(b, 4, 4); return b }, false},
		{"generation 0", func(b []byte) []byte { put64(b, 8, 0); put64(b, 16, 0); return b }, true},
		{"generations differ", func(b []byte) []byte { put64(b, 16, 1); return b }, true},
		{"one toc", func(b []byte) []byte { put32(b, 24, 1); return b }, false},
		{"tocs past end", func(b []byte) []byte { put32(b, 24, 1<<30); return b }, false},
		{"metrics past end", func(b []byte) []byte { put32(b, tocAt(mmv.TOCMetrics)+4, 9999); return b }, false},
		{"metrics count negative", func(b []byte) []byte { put32(b, tocAt(mmv.TOCMetrics)+4, 0xffffffff); return b }, false},
		{"values offset past end", func(b []byte) []byte { put64(b, tocAt(mmv.TOCValues)+8, 1<<62); return b }, false},
		{"values offset wraps", func(b []byte) []byte { put64(b, tocAt(mmv.TOCValues)+8, ^uint64(0)-8); return b }, false},
		{"metric name past end", func(b []byte) []byte { put64(b, f.Metrics[0].Offset, uint64(len(b))-10); return b }, false},
		{"instance name past end", func(b []byte) []byte { put64(b, f.Instances[0].Offset+16, 1<<40); return b }, false},
		{"one section named by many entries", func(b []byte) []byte {
			at := tocAt(mmv.TOCStrings)
			for i := range f.TOC {
				copy(b[mmv.HeaderSize+i*mmv.TOCSize:], b[at:at+mmv.TOCSize])
			}
			return b
		}, false},
		{"truncated mid-section", func(b []byte) []byte { return b[:f.Values[0].Offset+8] }, false},
	} {
		b := tc.edit(bytes.Clone(good))
		_, err := Parse(b, Limits{})
		want := ErrFormat
		if tc.inFlx {
			want = ErrInFlux
		}
		if !errors.Is(err, want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, want)
		}
	}
}
