package hostlabels

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// FuzzLabelFiles writes fuzzed text as a labels file and an optional
// labels file, reads them as pmcd does and builds the context label set.
// Every label kept is a compact JSON scalar taken from the files; the set
// is either refused with PM_ERR_TOOBIG or is a JSON object whose labels,
// read back through their offsets and read again as JSON, are exactly
// the labels read, sorted by name; nothing read is larger than the files.
func FuzzLabelFiles(f *testing.F) {
	for _, dir := range []string{"/etc/pcp/labels", "/etc/pcp/labels/optional"} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && !e.IsDir() {
				f.Add(string(b), "")
			}
		}
	}
	f.Add(`{"site": "lab", "rack": 4, "nested": {"x": 1}, "list": [1]}`, `{"tier":"gold","rack":5}`)
	f.Add(`{"a":1,"a":2, "b" : null, "c": true, "d": -1.5e3}`, `{not json`)
	f.Add(`{"\u00e9t\u00e9":"\ud800", "":""}`, `{"x":"`+strings.Repeat("y", 300)+`"}`)
	f.Fuzz(func(t *testing.T, file, optional string) {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "optional"), 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range map[string]string{"file": file, "optional/file": optional} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		labels := Labels{}
		readDir(dir, false, labels)
		readDir(filepath.Join(dir, "optional"), true, labels)
		size := 0
		for k, l := range labels {
			size += len(k) + len(l.Value)
			if !json.Valid(l.Value) || len(l.Value) == 0 || l.Value[0] == '{' || l.Value[0] == '[' {
				t.Fatalf("label %q has value %q", k, l.Value)
			}
			if !strings.Contains(file, k) && !strings.Contains(optional, k) && !strings.Contains(file+optional, `\`) {
				t.Fatalf("label name %q is in neither file", k)
			}
		}
		if size > len(file)+len(optional) {
			t.Fatalf("%d bytes of labels from %d bytes of files", size, len(file)+len(optional))
		}
		set, err := labels.Set()
		if err != nil {
			if !errors.Is(err, pcp.ErrTooBig) {
				t.Fatalf("Set: %v, want PM_ERR_TOOBIG", err)
			}
			return
		}
		if int(set.NLabels) != len(labels) || len(set.Labels) != len(labels) {
			t.Fatalf("%d labels in the set, %d read", set.NLabels, len(labels))
		}
		var back map[string]json.RawMessage
		if err := json.Unmarshal([]byte(set.JSON), &back); err != nil {
			t.Fatalf("set JSON %q: %v", set.JSON, err)
		}
		if len(back) != len(labels) {
			t.Fatalf("set JSON %q has %d labels, want %d", set.JSON, len(back), len(labels))
		}
		prev := ""
		for i, l := range set.Labels {
			raw := set.LabelName(i)
			var name string
			if err := json.Unmarshal([]byte(`"`+raw+`"`), &name); err != nil {
				t.Fatalf("label %d name %q: %v", i, raw, err)
			}
			if i > 0 && name <= prev {
				t.Fatalf("label %q after %q", name, prev)
			}
			prev = name
			want, ok := labels[name]
			if !ok || set.LabelValue(i) != string(want.Value) || string(back[name]) != string(want.Value) {
				t.Fatalf("label %q = %q (JSON %q), read %q", name, set.LabelValue(i), back[name], want.Value)
			}
			if opt := l.Flags&pcp.LabelOptional != 0; opt != want.Optional {
				t.Fatalf("label %q optional %v, read %v", name, opt, want.Optional)
			}
		}
	})
}

// TestLabelFileBounded: a labels file is read only as far as a label set
// can hold (as libpcp reads at most a buffer's worth), so a huge file is
// cut, fails to parse and is ignored, and the other files' labels still
// make a set.
func TestLabelFileBounded(t *testing.T) {
	dir := t.TempDir()
	huge := `{"big":"` + strings.Repeat("x", 4*pcp.MaxLabelJSONLen) + `"}`
	for name, text := range map[string]string{"a": huge, "b": `{"site":"lab"}`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	labels := Labels{}
	readDir(dir, false, labels)
	if _, ok := labels["big"]; ok || string(labels["site"].Value) != `"lab"` {
		t.Fatalf("labels %v, want only site", labels)
	}
	if _, err := labels.Set(); err != nil {
		t.Fatal(err)
	}
}
