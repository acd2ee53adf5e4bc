package pmda

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
)

// runCacheScript runs a script of testdata/cache_harness/cache.c's verbs
// against c and prints what the harness prints for libpcp_pmda's cache.
func runCacheScript(c *Cache, script string) string {
	var out strings.Builder
	code := func(err error) string {
		var e pcp.Error
		if errors.As(err, &e) {
			return fmt.Sprintf(" error %d\n", int32(e))
		}
		return fmt.Sprintf(" error %v\n", err)
	}
	num := func(n int, err error) string {
		if err != nil {
			return code(err)
		}
		return fmt.Sprintf(" %d\n", n)
	}
	key := func(rest string) ([]byte, string) {
		hx, name, _ := strings.Cut(rest, " ")
		name = strings.TrimLeft(name, " ")
		if hx == "-" {
			return nil, name
		}
		k, _ := hex.DecodeString(hx)
		return k, name
	}
	sc := bufio.NewScanner(strings.NewReader(script))
	for sc.Scan() {
		line := sc.Text()
		verb, name, _ := strings.Cut(line, " ")
		name = strings.TrimLeft(name, " \t")
		if verb == "" {
			continue
		}
		out.WriteString(line + ":")
		inst := func(i int32, err error) string { return num(int(i), err) }
		switch verb {
		case "add":
			out.WriteString(inst(c.Add(name, nil)))
		case "hide":
			out.WriteString(inst(c.Hide(name)))
		case "cull":
			out.WriteString(inst(c.Cull(name)))
		case "addkey":
			k, n := key(name)
			out.WriteString(inst(c.AddKey(n, k, nil)))
		case "lookup":
			i, _ := strconv.Atoi(name)
			if n, st, _, err := c.Lookup(int32(i)); err != nil {
				out.WriteString(code(err))
			} else {
				fmt.Fprintf(&out, " %s %s\n", n, st)
			}
		case "lookupname":
			if i, st, _, err := c.LookupName(name); err != nil {
				out.WriteString(code(err))
			} else {
				fmt.Fprintf(&out, " %d %s\n", i, st)
			}
		case "lookupkey":
			k, n := key(name)
			if on, i, st, _, err := c.LookupKey(n, k); err != nil {
				out.WriteString(code(err))
			} else {
				fmt.Fprintf(&out, " %s %d %s\n", on, i, st)
			}
		case "walk":
			for _, in := range c.Active() {
				fmt.Fprintf(&out, " %d=%s", in.ID, in.Name)
			}
			out.WriteString("\n")
		case "load":
			out.WriteString(num(c.Load()))
		case "save":
			out.WriteString(num(c.Save()))
		case "sync":
			out.WriteString(num(c.Sync()))
		case "strings":
			out.WriteString(num(0, c.Strings()))
		case "activeall":
			out.WriteString(num(c.ActivateAll(), nil))
		case "inactiveall":
			out.WriteString(num(c.DeactivateAll(), nil))
		case "cullall":
			out.WriteString(num(c.CullAll(), nil))
		case "size":
			out.WriteString(num(c.Size(), nil))
		case "sizeactive":
			out.WriteString(num(c.SizeActive(), nil))
		case "sizeinactive":
			out.WriteString(num(c.SizeInactive(), nil))
		case "reuse":
			c.Reuse()
			out.WriteString(" 0\n")
		case "reorg":
			c.Reorg()
			out.WriteString(" 0\n")
		default:
			out.WriteString(" unknown verb\n")
		}
	}
	return out.String()
}

// cacheScripts exercise the cache's operations; "pcp:" scripts run after
// the named one, on the file it saved.
var cacheScripts = []struct{ name, after, script string }{
	{name: "names", script: `add eth0
add eth1 primary
add eth1 backup
add eth1
add eth1 primary
lookupname eth1 other
lookupname eth1
lookupname eth2
lookup 1
lookup 7
hide eth0
hide nosuch
walk
sizeactive
sizeinactive
add eth0
walk
cull eth0
lookup 0
add eth9
walk
size
save
save
cullall
size
walk
`},
	{name: "keys", script: `addkey - foo
addkey ff80 bar
addkey 00010203040506070809 baz
addkey 000102030405060708090a0b0c0d0e0f101112 long
addkey ff80 other
addkey 01 foo
addkey - foo
lookupkey - foo
lookupkey ff80 x
lookupkey 99 x
add next
walk
save
`},
	{name: "reuse", script: `add a
add b
add c
add d
cull b
add e
reuse
add f
reorg
add g
walk
inactiveall
sizeactive
activeall
sizeinactive
sync
`},
	{name: "strings", script: `strings
add a b
add a c
add
lookupname a b
walk
add x
strings
`},
	{name: "reload", after: "names", script: `load
walk
sizeinactive
lookup 1
add eth1 primary
add new
walk
save
`},
	{name: "reload keys", after: "keys", script: `load
lookupkey ff80 x
addkey ff80 bar
addkey - foo2
sizeactive
sync
`},
	{name: "no file", script: `load
`},
}

var stampRE = regexp.MustCompile(`(?m)^(\d+) \d+`)

// buildCacheHarness compiles the C harness against libpcp_pmda.
func buildCacheHarness(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "cache")
	pcptest.Compile(t, pcptest.C{
		Src: "testdata/cache_harness/cache.c", Out: bin, CFlags: []string{"-O1"},
		Libs: pcptest.PMDALibs, Headers: pcptest.PMDAHeaders,
	})
	return bin
}

// TestCacheMatchesLibpcpPMDA runs each script through libpcp_pmda's cache
// and ours, each with its own PCP_VAR_DIR, and compares what they print
// and the cache files they save (stamps masked: they are the time of the
// save). Scripts that reload a file load the one PCP saved into both, so
// our loader reads PCP's files.
func TestCacheMatchesLibpcpPMDA(t *testing.T) {
	bin := buildCacheHarness(t)
	pcpDirs := map[string]string{}
	top := t
	for _, s := range cacheScripts {
		t.Run(s.name, func(t *testing.T) {
			pcpVar, ourVar := top.TempDir(), top.TempDir()
			for _, d := range []string{pcpVar, ourVar} {
				if err := os.MkdirAll(filepath.Join(d, "config", "pmda"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			file := func(dir string) string { return filepath.Join(dir, "config", "pmda", "253.0") }
			if s.after != "" {
				b, err := os.ReadFile(file(pcpDirs[s.after]))
				if err != nil {
					t.Fatalf("the file %q saved: %v", s.after, err)
				}
				for _, d := range []string{pcpVar, ourVar} {
					if err := os.WriteFile(file(d), b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			pcpDirs[s.name] = pcpVar
			cmd := exec.Command(bin)
			cmd.Env = append(os.Environ(), "PCP_VAR_DIR="+pcpVar)
			cmd.Stdin = strings.NewReader(s.script)
			want, err := cmd.Output()
			if err != nil {
				t.Fatalf("harness: %v", err)
			}
			c := NewCache(pcp.NewInDom(253, 0))
			c.SetDir(filepath.Join(ourVar, "config", "pmda"))
			got := runCacheScript(c, s.script)
			if got != string(want) {
				t.Errorf("script output:\nours:\n%s\nlibpcp_pmda's:\n%s", got, want)
			}
			wantFile, werr := os.ReadFile(file(pcpVar))
			gotFile, gerr := os.ReadFile(file(ourVar))
			if (werr == nil) != (gerr == nil) {
				t.Fatalf("cache file: ours %v, PCP's %v", gerr, werr)
			}
			g := stampRE.ReplaceAllString(string(gotFile), "$1 STAMP")
			w := stampRE.ReplaceAllString(string(wantFile), "$1 STAMP")
			if g != w {
				t.Errorf("cache file:\nours:\n%s\nlibpcp_pmda's:\n%s", gotFile, wantFile)
			}
		})
	}
}

func TestCacheHash(t *testing.T) {
	// Values from libpcp_pmda through the harness (addkey).
	cases := []struct {
		key  string
		inst int32
	}{
		{"foo", 2143417350},
		{"\xff\x80", 1176257873},
	}
	for _, c := range cases {
		if got := int32(hashBytes([]byte(c.key), 0) &^ (1 << 31)); got != c.inst {
			t.Errorf("hash(%q) = %d, want %d", c.key, got, c.inst)
		}
	}
}

func TestCachePurge(t *testing.T) {
	c := NewCache(pcp.NewInDom(253, 1))
	c.SetDir(t.TempDir())
	at := time.Unix(1_000_000, 0)
	c.now = func() time.Time { return at }
	for _, n := range []string{"old", "new"} {
		if _, err := c.Add(n, n); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Save(); err != nil {
		t.Fatal(err)
	}
	at = at.Add(time.Hour)
	if _, err := c.Add("new", "new"); err != nil { // active again: stamp cleared
		t.Fatal(err)
	}
	var released []any
	if n := c.Purge(time.Minute, func(p any) { released = append(released, p) }); n != 1 {
		t.Errorf("Purge culled %d, want 1", n)
	}
	if len(released) != 1 || released[0] != "old" {
		t.Errorf("released %v", released)
	}
	if _, _, _, err := c.LookupName("old"); !errors.Is(err, pcp.ErrInst) {
		t.Errorf("old still cached: %v", err)
	}
}

func TestCacheLoadErrors(t *testing.T) {
	cases := []struct{ name, file string }{
		{"bad version", "3 0 5\n"},
		{"no maxinst", "2 0\n"},
		{"bad mode", "2 2 5\n"},
		{"no name", "2 0 5\n0 123\n"},
		{"unclosed key", "2 0 5\n0 123 [abcd name\n"},
		{"bad hex", "2 0 5\n0 123 [zz] name\n"},
		{"huge inst", "2 0 5\n99999999999 1 name\n"},
		{"empty line", "2 0 5\n\n"},
	}
	for _, c := range cases {
		cache := NewCache(pcp.NewInDom(253, 0))
		if _, err := cache.LoadFrom(strings.NewReader(c.file)); !errors.Is(err, pcp.ErrGeneric) {
			t.Errorf("%s: %v, want PM_ERR_GENERIC", c.name, err)
		}
	}
	cache := NewCache(pcp.NewInDom(253, 0))
	cache.SetDir(t.TempDir())
	if _, err := cache.Load(); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// FuzzCacheLoad feeds the loader arbitrary files: it must not panic, and
// whatever it loads must save and load back to the same entries.
func FuzzCacheLoad(f *testing.F) {
	f.Add("2 1 2147483647\n0 1795350743 eth0\n1176257873 1795350743 [ff80] bar\n")
	f.Add("1 0\n5 0 five\n3 0 three x\n")
	f.Add("2 0 3\n0 0 a\n0 0 b\n1 0 a\n")
	f.Fuzz(func(t *testing.T, file string) {
		c := NewCache(pcp.NewInDom(253, 0))
		c.now = func() time.Time { return time.Unix(1, 0) }
		if _, err := c.LoadFrom(strings.NewReader(file)); err != nil {
			return
		}
		var buf bytes.Buffer
		c.mu.Lock()
		c.write(&buf)
		c.mu.Unlock()
		d := NewCache(pcp.NewInDom(253, 0))
		if _, err := d.LoadFrom(&buf); err != nil {
			// A name written after an empty key ("[]") can read back
			// as a key; nothing else may fail.
			if !strings.Contains(file, "[]") {
				t.Fatalf("reloading what %q loaded: %v", file, err)
			}
			return
		}
		if g, w := fmt.Sprint(d.Active(), d.SizeInactive()), fmt.Sprint(c.Active(), c.SizeInactive()); g != w {
			t.Fatalf("reload: %s, want %s", g, w)
		}
	})
}

// TestCacheFileReadByLibpcpPMDA saves a cache of ours and has libpcp_pmda
// load it: the same entries, keys and numbering mode come back.
func TestCacheFileReadByLibpcpPMDA(t *testing.T) {
	bin := buildCacheHarness(t)
	dir := t.TempDir()
	pmdaDir := filepath.Join(dir, "config", "pmda")
	c := NewCache(pcp.NewInDom(253, 0))
	c.SetDir(pmdaDir)
	script := "add eth0\nadd eth1 primary\naddkey ff80 keyed\naddkey - named\nadd gone\ncull gone\nhide eth0\nsave\n"
	runCacheScript(c, script)
	check := "load\nsize\nlookup 0\nlookup 1\nlookupname eth1\nlookupkey ff80 x\nlookupkey - named\nadd eth2\nactiveall\nwalk\n"
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "PCP_VAR_DIR="+dir)
	cmd.Stdin = strings.NewReader(check)
	want, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	d := NewCache(pcp.NewInDom(253, 0))
	d.SetDir(pmdaDir)
	if got := runCacheScript(d, check); got != string(want) {
		t.Errorf("our file loaded:\nby us:\n%s\nby libpcp_pmda:\n%s", got, want)
	}
	if !strings.Contains(string(want), "load: 4") {
		t.Errorf("libpcp_pmda loaded:\n%s", want)
	}
}

// TestCacheAppendActive: AppendActive lists what Active lists after what
// dst holds, and with room in dst allocates nothing.
func TestCacheAppendActive(t *testing.T) {
	c := NewCache(pcp.NewInDom(1, 1))
	for _, n := range []string{"a", "b", "c"} {
		if _, err := c.Add(n, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Hide("b"); err != nil {
		t.Fatal(err)
	}
	head := []Instance{{ID: -5, Name: "kept"}}
	got := c.AppendActive(head)
	if want := append([]Instance{{ID: -5, Name: "kept"}}, c.Active()...); !reflect.DeepEqual(got, want) || len(want) != 3 {
		t.Fatalf("AppendActive %v, want %v", got, want)
	}
}
