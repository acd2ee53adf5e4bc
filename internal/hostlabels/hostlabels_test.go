package hostlabels

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

func TestRead(t *testing.T) {
	// Only /etc/machine-id counts, as in libpcp: a machine without it
	// (no systemd: containers, debootstrap roots) is "localmachine" even
	// where dbus keeps its own copy.
	id := "localmachine"
	if b, err := os.ReadFile("/etc/machine-id"); err == nil && len(strings.Fields(string(b))) > 0 {
		id = strings.Fields(string(b))[0]
	}
	sum := sha256.Sum256([]byte(id))
	cases := []struct {
		name  string
		files map[string]string
		want  map[string]string // name -> JSON value, "?" prefix: optional
	}{
		{"nothing", nil, map[string]string{"machineid": `"` + id + `"`}},
		{"files", map[string]string{
			"labels/a":          `{"site": "lab", "rack": 4, "nested": {"x": 1}, "list": [1]}`,
			"labels/b":          `{"rack": 5}`,
			"labels/.hidden":    `{"hidden": 1}`,
			"labels/bad":        `{not json`,
			"labels/optional/o": `{"tier":"gold","hostname":"nope"}`,
		}, map[string]string{"site": `"lab"`, "rack": `5`, "tier": `?"gold"`, "machineid": `"` + id + `"`}},
		{"sha256", map[string]string{"labels.conf": "# comment\n[global]\nmachineid_hash = sha256\n"},
			map[string]string{"machineid_sha256": `"` + hex.EncodeToString(sum[:]) + `"`}},
		{"other section", map[string]string{"labels.conf": "[other]\nmachineid_hash = sha256\n"},
			map[string]string{"machineid": `"` + id + `"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range c.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got := Read(dir)
			for _, k := range []string{"hostname", "domainname"} {
				if len(got[k].Value) < 3 || got[k].Optional {
					t.Errorf("%s = %s", k, got[k].Value)
				}
				delete(got, k)
			}
			if len(got) != len(c.want) {
				t.Errorf("labels %v, want %v", got, c.want)
			}
			for k, w := range c.want {
				opt := strings.HasPrefix(w, "?")
				w = strings.TrimPrefix(w, "?")
				if string(got[k].Value) != w || got[k].Optional != opt {
					t.Errorf("%s = %s (optional %v), want %s (optional %v)", k, got[k].Value, got[k].Optional, w, opt)
				}
			}
		})
	}
}

func TestSet(t *testing.T) {
	l := Labels{}
	l.SetString("b", "x")
	l["a"] = Label{Value: []byte("1"), Optional: true}
	set, err := l.Set()
	if err != nil {
		t.Fatal(err)
	}
	if set.JSON != `{"a":1,"b":"x"}` || set.NLabels != 2 {
		t.Fatalf("set %q %d", set.JSON, set.NLabels)
	}
	for i, want := range []struct{ name, value string }{{"a", "1"}, {"b", `"x"`}} {
		if set.LabelName(i) != want.name || set.LabelValue(i) != want.value {
			t.Errorf("label %d: %s=%s", i, set.LabelName(i), set.LabelValue(i))
		}
	}
	if set.Labels[0].Flags&pcp.LabelOptional == 0 || set.Labels[1].Flags&pcp.LabelOptional != 0 {
		t.Errorf("flags %#x %#x, want a optional and b not", set.Labels[0].Flags, set.Labels[1].Flags)
	}
	big := Labels{}
	big.SetString("k", strings.Repeat("v", 70000))
	if _, err := big.Set(); err == nil {
		t.Error("oversized set accepted")
	}
}

func TestReadMachineID(t *testing.T) {
	long := strings.Repeat("a", 300)
	cases := []struct {
		name string
		body *string // nil: no file
		want string
	}{
		{"missing", nil, "localmachine"},
		{"empty", ptr(""), "localmachine"},
		{"blank", ptr(" \n\t\n"), "localmachine"},
		{"usual", ptr("0123456789abcdef0123456789abcdef\n"), "0123456789abcdef0123456789abcdef"},
		{"leading space, two words", ptr("  abc def\n"), "abc"},
		{"no newline", ptr("abc"), "abc"},
		{"cut to libpcp's buffer", ptr(long), long[:255]},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "machine-id")
			if c.body != nil {
				if err := os.WriteFile(p, []byte(*c.body), 0o444); err != nil {
					t.Fatal(err)
				}
			}
			if got := readMachineID(p); got != c.want {
				t.Errorf("readMachineID = %q, want %q", got, c.want)
			}
		})
	}
}

func ptr(s string) *string { return &s }
