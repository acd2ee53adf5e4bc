package pmda

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
)

const helpSource = `# a comment
@ simple.numfetch Count of fetches.
How many times the agent was asked for values.

@ SIMPLE.1 The clock instance domain.
Instances named after parts of the clock.
@ 253.0.1 A numeric PMID.

@ simple.nosuch Unknown.
Dropped.
`

func TestParseHelp(t *testing.T) {
	lookup := func(name string) (pcp.PMID, error) {
		if name == "simple.numfetch" {
			return pcp.NewPMID(253, 0, 0), nil
		}
		return pcp.PMIDNull, pcp.ErrName
	}
	entries, err := ParseHelp(strings.NewReader(helpSource), HelpOptions{
		File: "help", Lookup: lookup, Domains: map[string]uint32{"SIMPLE": 253}})
	want := []HelpEntry{
		{Name: "simple.numfetch", ID: uint32(pcp.NewPMID(253, 0, 0)), OneLine: "Count of fetches.", Text: "How many times the agent was asked for values.", Line: 5},
		{Name: "SIMPLE.1", ID: uint32(pcp.NewInDom(253, 1)), InDom: true, OneLine: "The clock instance domain.", Text: "Instances named after parts of the clock.", Line: 7},
		{Name: "253.0.1", ID: uint32(pcp.NewPMID(253, 0, 1)), OneLine: "A numeric PMID.", Line: 9},
	}
	if fmt.Sprint(entries) != fmt.Sprint(want) {
		t.Errorf("entries:\n%v\nwant\n%v", entries, want)
	}
	var he *HelpError
	if !errors.As(err, &he) || !errors.Is(err, pcp.ErrName) {
		t.Fatalf("error %v: want the unknown name", err)
	}
	if !strings.Contains(err.Error(), "[help:11] simple.nosuch: Unknown metric name, entry abandoned") {
		t.Errorf("error text %q", err)
	}
	if !strings.Contains(err.Error(), "253.0.1 A numeric PMID.: warning, null help") {
		t.Errorf("no warning of the empty help in %q", err)
	}
}

// TestHelpApply gives a metric table the help of a source, through the
// agent's Text answers.
func TestHelpApply(t *testing.T) {
	metrics := []Metric{
		{Name: "simple.numfetch", Desc: pcp.Desc{PMID: pcp.NewPMID(0, 0, 0), Type: pcp.Type32, InDom: pcp.InDomNull}},
		{Name: "simple.other", Desc: pcp.Desc{PMID: pcp.NewPMID(0, 0, 1), Type: pcp.Type32, InDom: pcp.InDomNull}, OneLine: "own"},
	}
	indoms := []InDom{{InDom: pcp.NewInDom(0, 1)}}
	entries, _ := ParseHelp(strings.NewReader(helpSource), HelpOptions{
		Lookup: MetricLookup(253, metrics), Domains: map[string]uint32{"SIMPLE": 253}})
	NewHelp(entries).Apply(253, metrics, indoms)
	if metrics[0].OneLine != "Count of fetches." || metrics[1].OneLine != "own" || metrics[1].Help != "" {
		t.Errorf("metrics after Apply: %+v", metrics)
	}
	if indoms[0].Help != "Instances named after parts of the clock." {
		t.Errorf("indom after Apply: %+v", indoms[0])
	}
}

// TestHelpDBRoundTrip writes a database and reads it back.
func TestHelpDBRoundTrip(t *testing.T) {
	entries, _ := ParseHelp(strings.NewReader(helpSource), HelpOptions{Domains: map[string]uint32{"SIMPLE": 253}})
	base := filepath.Join(t.TempDir(), "help")
	if err := CreateHelpDB(base, entries); err != nil {
		t.Fatal(err)
	}
	h, err := OpenHelp(base)
	if err != nil {
		t.Fatal(err)
	}
	if one, _, ok := h.InDomText(pcp.NewInDom(253, 1)); !ok || one != "The clock instance domain." {
		t.Errorf("InDomText = %q, %v", one, ok)
	}
	if one, text, ok := h.Text(pcp.NewPMID(253, 0, 1)); !ok || one != "A numeric PMID." || text != "" {
		t.Errorf("Text = %q %q %v", one, text, ok)
	}
	if _, _, ok := h.Text(pcp.NewPMID(253, 0, 0)); ok {
		t.Error("an unresolved name has text")
	}
}

func TestReadHelpDBErrors(t *testing.T) {
	var pag, dir bytes.Buffer
	entries, _ := ParseHelp(strings.NewReader(helpSource), HelpOptions{Domains: map[string]uint32{"SIMPLE": 253}})
	if err := WriteHelpDB(&pag, &dir, entries); err != nil {
		t.Fatal(err)
	}
	d := dir.Bytes()
	cases := []struct {
		name     string
		dir, pag []byte
	}{
		{"empty", nil, pag.Bytes()},
		{"bad magic", append([]byte{1}, d[1:]...), pag.Bytes()},
		{"too many entries", append(append([]byte{}, d[:8]...), append([]byte{0xff, 0, 0, 0}, d[12:]...)...), pag.Bytes()},
		{"offset outside", d, pag.Bytes()[:20]},
	}
	for _, c := range cases {
		if _, err := ReadHelpDB(c.dir, c.pag); !errors.Is(err, errInval) {
			t.Errorf("%s: %v, want EINVAL", c.name, err)
		}
	}
}

// TestHelpDBAgainstLibpcpPMDA reads the help databases PCP installed for
// its agents with libpcp_pmda's pmdaOpenHelp (through a C harness) and
// with OpenHelp, and compares every text.
func TestHelpDBAgainstLibpcpPMDA(t *testing.T) {
	pcptest.NeedCompiler(t, pcptest.PMDAHeaders...)
	dbs, _ := filepath.Glob("/var/lib/pcp/pmdas/*/help.dir")
	if len(dbs) == 0 {
		pcptest.Missing(t, "no installed agent help databases")
	}
	bin := filepath.Join(t.TempDir(), "help")
	pcptest.Compile(t, pcptest.C{
		Src: "testdata/help_harness/help.c", Out: bin, CFlags: []string{"-O1"},
		Libs: pcptest.PMDALibs, Headers: pcptest.PMDAHeaders,
	})
	esc := strings.NewReplacer("\\", "\\\\", "\n", "\\n", "\t", "\\t")
	for _, d := range dbs {
		base := strings.TrimSuffix(d, ".dir")
		want := pcptest.Run(t, "", bin, base)
		h, err := OpenHelp(base)
		if err != nil {
			t.Errorf("%s: %v", base, err)
			continue
		}
		raw, _ := os.ReadFile(d)
		var got strings.Builder
		for i := helpRecord; i+helpRecord <= len(raw); i += helpRecord {
			key := uint32(raw[i]) | uint32(raw[i+1])<<8 | uint32(raw[i+2])<<16 | uint32(raw[i+3])<<24
			var one, text string
			if key>>31 != 0 {
				one, text, _ = h.InDomText(pcp.InDom(key &^ (1 << 31)))
			} else {
				one, text, _ = h.Text(pcp.PMID(key))
			}
			fmt.Fprintf(&got, "%08x\t%s\t%s\n", key, esc.Replace(one), esc.Replace(text))
		}
		if got.String() != want {
			t.Errorf("%s: ours and libpcp_pmda's texts differ", base)
		}
		if h.Len() == 0 {
			t.Errorf("%s: no texts", base)
		}
	}
	t.Logf("compared %d help databases", len(dbs))
}

// FuzzParseHelp checks the parser never panics, keeps only entries with
// an identity, and that what it keeps writes and reads back the same.
func FuzzParseHelp(f *testing.F) {
	f.Add(helpSource, true)
	f.Add("@ 1.2 x\ny\n@\n@ 1.2.3\n#\n", false)
	f.Add(strings.Repeat("@ 2.3 "+strings.Repeat("long ", 40)+"\n", 3), true)
	f.Fuzz(func(t *testing.T, src string, limits bool) {
		entries, _ := ParseHelp(strings.NewReader(src), HelpOptions{Limits: limits, Domains: map[string]uint32{"D": 7}})
		var pag, dir bytes.Buffer
		if err := WriteHelpDB(&pag, &dir, entries); err != nil {
			t.Fatal(err)
		}
		h, err := ReadHelpDB(dir.Bytes(), pag.Bytes())
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		for _, e := range entries {
			if strings.ContainsRune(e.OneLine+e.Text, 0) {
				continue // a NUL ends a text in the database
			}
			var one, text string
			var ok bool
			if e.InDom {
				one, text, ok = h.InDomText(pcp.InDom(e.ID))
			} else {
				one, text, ok = h.Text(pcp.PMID(e.ID))
			}
			if !ok {
				t.Fatalf("entry %s lost", e.Name)
			}
			_, _ = one, text
		}
	})
}

// FuzzReadHelpDB feeds the database reader arbitrary files.
func FuzzReadHelpDB(f *testing.F) {
	var pag, dir bytes.Buffer
	entries, _ := ParseHelp(strings.NewReader(helpSource), HelpOptions{Domains: map[string]uint32{"SIMPLE": 253}})
	WriteHelpDB(&pag, &dir, entries)
	f.Add(dir.Bytes(), pag.Bytes())
	f.Fuzz(func(t *testing.T, dir, pag []byte) {
		h, err := ReadHelpDB(dir, pag)
		if err != nil {
			return
		}
		keys := make([]int, 0)
		for k := range h.pmids {
			keys = append(keys, int(k))
		}
		sort.Ints(keys)
	})
}
