package archive

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// textWalk lists a texts table in its walk order, which pmdumplog -h's
// order follows.
func textWalk(h *htab[*htab[string]]) []string {
	var out []string
	h.each(func(n *hnode[*htab[string]]) {
		n.data.each(func(t *hnode[string]) {
			out = append(out, fmt.Sprintf("%d/%d=%q", n.key, t.key, t.data))
		})
	})
	return out
}

// TestTextsFiledLazily loads help text records (a replaced one, empty
// ones, one larger than a chunk, one cut at a NUL, one libpcp skips)
// and checks that the table filed at first use is the one filing each
// record as it was read gives, in content and walk order, and that
// readers asking at once all see it.
func TestTextsFiledLazily(t *testing.T) {
	desc := metaRec(TypeDesc, 1<<10|1, int(pcp.Type32), -1, int(pcp.SemInstant), 0, 1, 3, "a.b")
	type text struct {
		typ, ident int
		body       string
	}
	var texts []text
	for i := range 300 {
		texts = append(texts, text{TextPMID | TextOneLine, 1<<10 | i, fmt.Sprintf("one line %d", i)})
		texts = append(texts, text{TextPMID | TextHelp, 1<<10 | i, strings.Repeat("help ", i)})
	}
	texts = append(texts,
		text{TextInDom | TextOneLine, 7, ""},
		text{TextInDom | TextHelp, 7, strings.Repeat("x", 3*textChunk/2)},
		text{TextPMID | TextOneLine, 1<<10 | 5, "replaced"},
		text{TextInDom | TextOneLine, 8, "cut\x00here"},
	)
	recs := [][]byte{desc}
	want := &Meta{}
	for _, x := range texts {
		recs = append(recs, metaRec(TypeText, x.typ, x.ident, x.body))
		body, _, _ := strings.Cut(x.body, "\x00")
		want.addText(uint32(x.typ), uint32(x.ident), body)
	}
	// a record libpcp skips (no kind bits), last: its trailer is left
	// as a partial header, the end of the file
	recs = append(recs, metaRec(TypeText, 0, 9, "skipped"))
	for _, c := range []struct{ empty, fromFile bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		empty := c.empty
		b := metaFile(recs...)
		if empty {
			// only empty texts: a table of empty strings
			b = metaFile(desc, metaRec(TypeText, TextPMID|TextOneLine, 1, ""), metaRec(TypeText, TextInDom|TextHelp, 2, ""))
		}
		var m *Meta
		if c.fromFile {
			m, _ = loadMetaFile(t, b)
		} else {
			var err error
			if m, err = loadMeta(b, Version3); err != nil {
				t.Fatal(err)
			}
		}
		if m.pending == nil {
			t.Fatal("no help text kept")
		}
		if c.fromFile && runtime.GOOS == "linux" && (m.pending.cur != nil || m.pending.src == nil) {
			t.Fatal("help text from a file copied at load")
		}
		if len(m.texts.buckets) != 0 {
			t.Fatal("help text filed at load")
		}
		exp := want
		if empty {
			exp = &Meta{}
			exp.addText(TextPMID|TextOneLine, 1, "")
			exp.addText(TextInDom|TextHelp, 2, "")
		}
		var wg sync.WaitGroup
		got := make([][]HelpText, 8)
		for g := range got {
			wg.Go(func() {
				if g%2 == 0 {
					_, _ = m.Text(TextPMID, TextOneLine, 1<<10|5)
				}
				got[g] = m.HelpTexts()
			})
		}
		wg.Wait()
		for g := range got {
			if !slices.Equal(got[g], exp.HelpTexts()) {
				t.Fatalf("empty %v: reader %d: help texts differ from filing at load", empty, g)
			}
		}
		if w, g := textWalk(&exp.texts), textWalk(m.textTable()); !slices.Equal(w, g) {
			t.Fatalf("empty %v: walk order %v, want %v", empty, g[:min(4, len(g))], w[:min(4, len(w))])
		}
		for _, x := range texts {
			if empty {
				break
			}
			kind, class := uint32(x.typ)&(TextPMID|TextInDom), uint32(x.typ)&(TextOneLine|TextHelp)
			g, err := m.Text(kind, class, uint32(x.ident))
			w, werr := exp.Text(kind, class, uint32(x.ident))
			if g != w || (err == nil) != (werr == nil) {
				t.Fatalf("text %d/%d: %q %v, want %q %v", x.typ, x.ident, g, err, w, werr)
			}
		}
		if _, err := m.Text(TextPMID, TextOneLine, 12345); err != pcp.ErrText {
			t.Fatalf("a missing text: %v", err)
		}
	}
}

// TestNamesIndexedOnFirstUse: the names of each PMID are indexed when
// first asked for, not at load, and readers asking at once all get the
// order one reader alone gets.
func TestNamesIndexedOnFirstUse(t *testing.T) {
	var recs [][]byte
	for i := range 50 {
		// each PMID has two names, under two trees
		recs = append(recs, metaRec(TypeDesc, 1<<10|i, int(pcp.Type32), -1, int(pcp.SemInstant), 0,
			2, len(fmt.Sprintf("a.b%d", i)), fmt.Sprintf("a.b%d", i), len(fmt.Sprintf("c.d.e%d", i)), fmt.Sprintf("c.d.e%d", i)))
	}
	load := func() *Meta {
		m, err := loadMeta(metaFile(recs...), Version3)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	alone := load()
	want := map[pcp.PMID][]string{}
	for i := range 50 {
		names, err := alone.Names(pcp.PMID(1<<10 | i))
		if err != nil || len(names) != 2 {
			t.Fatalf("PMID %d: %v %v", i, names, err)
		}
		want[pcp.PMID(1<<10|i)] = names
	}
	m := load()
	if m.names.names != nil {
		t.Fatal("names indexed at load")
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				id := pcp.PMID(1<<10 | (i+g)%50)
				if got, err := m.Names(id); err != nil || !slices.Equal(got, want[id]) {
					t.Errorf("reader %d: PMID %v: %v %v, want %v", g, id, got, err, want[id])
				}
			}
		})
	}
	wg.Wait()
	if _, err := m.Names(pcp.PMID(1<<10 | 99)); err != pcp.ErrPMID {
		t.Fatalf("a PMID without names: %v", err)
	}
}

// loadMetaFile writes b as a metadata file and loads it as Open does,
// streamed from the file; it returns the file's name.
func loadMetaFile(t *testing.T, b []byte) (*Meta, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "a.meta")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	s, _, _, done, err := openMeta(path)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	m, err := loadMetaFrom(s, Version3)
	if err != nil {
		t.Fatal(err)
	}
	return m, path
}

// TestTextsFromChangedFile: help texts read again from the metadata file
// are those loaded, or not found: a record changed in place is left
// out, and a file put in the place of the one loaded, or none, gives no
// texts.
func TestTextsFromChangedFile(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("help texts are read again only where a file's identity is known")
	}
	desc := metaRec(TypeDesc, 1<<10|1, int(pcp.Type32), -1, int(pcp.SemInstant), 0, 1, 3, "a.b")
	one := metaRec(TypeText, TextPMID|TextOneLine, 1, "one")
	two := metaRec(TypeText, TextPMID|TextHelp, 1, "two")
	b := metaFile(desc, one, two)
	for _, c := range []struct {
		name          string
		change        func(t *testing.T, path string)
		wantOne, want string
	}{
		{"unchanged", func(*testing.T, string) {}, "one", "two"},
		{"one's length word changed", func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteAt([]byte{0, 0, 0, 99}, int64(len(b)-len(two)-len(one))); err != nil {
				t.Fatal(err)
			}
		}, "", "two"},
		{"truncated", func(t *testing.T, path string) {
			if err := os.Truncate(path, int64(len(b)-4)); err != nil {
				t.Fatal(err)
			}
		}, "one", ""},
		{"replaced", func(t *testing.T, path string) {
			if err := os.WriteFile(path+".new", b, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(path+".new", path); err != nil {
				t.Fatal(err)
			}
		}, "", ""},
		{"removed", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, "", ""},
	} {
		m, path := loadMetaFile(t, b)
		c.change(t, path)
		for _, x := range []struct {
			class uint32
			want  string
		}{{TextOneLine, c.wantOne}, {TextHelp, c.want}} {
			got, err := m.Text(TextPMID, x.class, 1)
			if x.want == "" && err != pcp.ErrText || x.want != "" && (err != nil || got != x.want) {
				t.Errorf("%s: class %d: %q %v, want %q", c.name, x.class, got, err, x.want)
			}
		}
	}
}
