package mmv

import (
	"bytes"
	"context"
	"errors"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/ownfile"
	gommv "github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// local is the agent in-process over dir, with a process table the test
// controls and a log it can read.
type local struct {
	t    *testing.T
	a    *pmda.Agent
	dir  string
	dead atomic.Int32 // a pid reported as exited
	log  *bytes.Buffer
}

func newLocal(t *testing.T) *local { return newLocalIn(t, t.TempDir()) }

func newLocalIn(t *testing.T, dir string) *local {
	t.Helper()
	l := &local{t: t, dir: dir, log: &bytes.Buffer{}}
	ag, a, err := newAgent(Domain, Options{Dir: l.dir, Prefix: Prefix, Log: log.New(l.log, "", 0),
		Alive: func(pid int32) bool { return pid != l.dead.Load() && ownfile.Alive(int(pid)) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ag.release)
	l.a = a
	return l
}

// names lists every name below mmv, sorted.
func (l *local) names() []string {
	l.t.Helper()
	names, err := l.a.Traverse(context.Background(), 0, "mmv")
	if err != nil {
		l.t.Fatal(err)
	}
	slices.Sort(names)
	return names
}

func (l *local) has(name string) bool { return slices.Contains(l.names(), name) }

// value fetches a single-valued metric by name.
func (l *local) value(name string) (pcp.ValueSet, error) {
	l.t.Helper()
	id, err := l.a.LookupName(context.Background(), 0, name)
	if err != nil {
		return pcp.ValueSet{}, err
	}
	r, err := l.a.Fetch(context.Background(), 0, []pcp.PMID{id})
	if err != nil {
		return pcp.ValueSet{}, err
	}
	return r.Sets[0], nil
}

func (l *local) store(item uint32, v int32) error {
	return l.a.Store(context.Background(), 0, &pcp.Result{Sets: []pcp.ValueSet{{
		PMID: pcp.NewPMID(Domain, 0, item), NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: v}}}}})
}

func (l *local) registry(name string, flags gommv.Flags) *gommv.Registry {
	l.t.Helper()
	r, err := gommv.New(name, gommv.Options{Dir: l.dir, Flags: flags})
	if err != nil {
		l.t.Fatal(err)
	}
	if _, err := r.Counter("first", gommv.MetricOptions{}); err != nil {
		l.t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		l.t.Fatal(err)
	}
	l.t.Cleanup(func() { r.Close() })
	return r
}

// freezeDir sets the directory's times back to what they were, so that
// only the trigger under test can make the agent rescan.
func (l *local) freezeDir(at time.Time) {
	l.t.Helper()
	if err := os.Chtimes(l.dir, at, at); err != nil {
		l.t.Fatal(err)
	}
}

func (l *local) dirTime() time.Time {
	st, err := os.Stat(l.dir)
	if err != nil {
		l.t.Fatal(err)
	}
	return st.ModTime()
}

// TestReloadTriggers checks each of pmdammv's reasons to rescan, alone.
func TestReloadTriggers(t *testing.T) {
	t.Run("directory change", func(t *testing.T) {
		l := newLocal(t)
		if l.has("mmv.app.first") {
			t.Fatal("served before it exists")
		}
		l.registry("app", 0)
		if !l.has("mmv.app.first") {
			t.Errorf("a new file is not served: %v", l.names())
		}
	})
	t.Run("generation change", func(t *testing.T) {
		l := newLocal(t)
		r := l.registry("app", 0)
		if !l.has("mmv.app.first") {
			t.Fatal("not served")
		}
		at := l.dirTime()
		if _, err := r.Counter("second", gommv.MetricOptions{}); err != nil { // a rewrite: new generation
			t.Fatal(err)
		}
		l.freezeDir(at)
		if !l.has("mmv.app.second") {
			t.Errorf("a rewritten file's new metric is not served: %v", l.names())
		}
	})
	t.Run("process exited", func(t *testing.T) {
		l := newLocal(t)
		l.registry("app", gommv.Process)
		if !l.has("mmv.app.first") {
			t.Fatal("not served")
		}
		l.dead.Store(int32(os.Getpid()))
		if l.has("mmv.app.first") {
			t.Errorf("a file whose process exited is still served")
		}
	})
	t.Run("store to reload", func(t *testing.T) {
		l := newLocal(t)
		l.registry("app", 0)
		if !l.has("mmv.app.first") {
			t.Fatal("not served")
		}
		at := l.dirTime()
		// A file put in place with the directory's time kept: nothing
		// but a store makes the agent look.
		b, err := os.ReadFile(filepath.Join(l.dir, "app"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(l.dir, "copy"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		l.freezeDir(at)
		if l.has("mmv.copy.first") {
			t.Fatal("rescanned without a trigger")
		}
		if err := l.store(0, 1); err != nil {
			t.Fatal(err)
		}
		if !l.has("mmv.copy.first") {
			t.Errorf("a store to reload did not rescan: %v", l.names())
		}
		if s, _ := l.value("mmv.control.reload"); s.Values[0].LVal != 0 {
			t.Errorf("reload is %d after the rescan, want 0", s.Values[0].LVal)
		}
	})
	t.Run("in flux", func(t *testing.T) {
		l := newLocal(t)
		l.registry("app", 0)
		path := filepath.Join(l.dir, "app")
		b, _ := os.ReadFile(path)
		g2 := slices.Clone(b[16:24])
		b[16] ^= 1 // generation 2 differs: a writer at work
		if err := os.WriteFile(filepath.Join(l.dir, "busy"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if l.has("mmv.busy.first") {
			t.Fatal("a file in flux is served")
		}
		at := l.dirTime()
		copy(b[16:24], g2)
		f, err := os.OpenFile(filepath.Join(l.dir, "busy"), os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteAt(b[16:24], 16)
		f.Close()
		l.freezeDir(at)
		if !l.has("mmv.busy.first") {
			t.Errorf("a file no longer in flux is not served at the next request")
		}
	})
}

// TestControlMetrics checks the control metrics' values and stores.
func TestControlMetrics(t *testing.T) {
	l := newLocal(t)
	l.registry("a", 0)
	l.registry("b", 0)
	if s, err := l.value("mmv.control.files"); err != nil || s.Values[0].LVal != 2 {
		t.Errorf("files = %+v, %v; want 2", s, err)
	}
	if err := l.store(1, 5); err != nil {
		t.Fatal(err)
	}
	if s, _ := l.value("mmv.control.debug"); s.Values[0].LVal != 5 {
		t.Errorf("debug = %d after storing 5", s.Values[0].LVal)
	}
	if err := l.store(2, 1); err != pcp.ErrPermission {
		t.Errorf("store to files: %v, want %v", err, pcp.ErrPermission)
	}
	err := l.a.Store(context.Background(), 0, &pcp.Result{Sets: []pcp.ValueSet{{PMID: pcp.NewPMID(Domain, 1, 0), NumVal: 1, Values: []pcp.Value{{}}}}})
	if err != pcp.ErrPermission {
		t.Errorf("store to a file's metric: %v, want %v", err, pcp.ErrPermission)
	}
}

// TestBadFilesSkipped puts broken files beside a good one: each is
// skipped with one log line (not one per rescan) and the good one served.
func TestBadFilesSkipped(t *testing.T) {
	l := newLocal(t)
	l.registry("good", 0)
	good, _ := os.ReadFile(filepath.Join(l.dir, "good"))
	put32 := func(b []byte, at int, v uint32) []byte {
		b = bytes.Clone(b)
		b[at], b[at+1], b[at+2], b[at+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		return b
	}
	bad := map[string][]byte{
		"short":     good[:30],
		"magic":     append([]byte("XMV\x00"), good[4:]...),
		"version":   put32(good, 4, 9),
		"tocs":      put32(good, 24, 1000),
		"count":     put32(good, 40+4, 1<<20),             // first TOC entry's count
		"offset":    put32(good, 40+8, uint32(len(good))), // first TOC entry's offset
		"truncated": good[:len(good)-8],
	}
	for name, b := range bad {
		if err := os.WriteFile(filepath.Join(l.dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !l.has("mmv.good.first") {
		t.Fatalf("the good file is not served: %v", l.names())
	}
	for name := range bad {
		if l.has("mmv." + name + ".first") {
			t.Errorf("%s: served", name)
		}
	}
	l.store(0, 1) // rescan: no more log lines
	l.names()
	lines := strings.Split(strings.TrimSpace(l.log.String()), "\n")
	if len(lines) != len(bad) {
		t.Errorf("%d log lines for %d bad files:\n%s", len(lines), len(bad), l.log)
	}
	for name := range bad {
		if n := strings.Count(l.log.String(), "/"+name+":"); n != 1 {
			t.Errorf("%s: %d log lines", name, n)
		}
	}
}

// TestTruncatedUnderMapping: a writer that truncates its file while the
// agent has it mapped turns the agent's reads into SIGBUS, which would end
// the process; the agent's guard takes the fault, logs it and answers on.
func TestTruncatedUnderMapping(t *testing.T) {
	l := newLocal(t)
	l.registry("app", 0)
	// a copy, so that the writer's own mapping is not the one cut
	b, err := os.ReadFile(filepath.Join(l.dir, "app"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(l.dir, "copy"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := l.value("mmv.copy.first"); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(l.dir, "copy"), 0); err != nil {
		t.Fatal(err)
	}
	l.value("mmv.copy.first") // the fault, which must not end the test binary
	if !strings.Contains(l.log.String(), "fault reading a mapped file") {
		t.Errorf("no log line for the fault: %q", l.log.String())
	}
	if _, err := l.value("mmv.control.files"); err != nil {
		t.Errorf("not answering after the fault: %v", err)
	}
}

// TestTruncatedReadsNoValue: a file cut short under the agent's mapping,
// its header kept, reads zeros past its new end within the last page
// (no fault there). The fetch that reads them gives PM_ERR_VALUE, and a
// help text so read PM_ERR_TEXT, not the zeros, and the next request
// rescans. Before, the fetch served 0 and the help "".
func TestTruncatedReadsNoValue(t *testing.T) {
	for _, what := range []string{"fetch", "help"} {
		t.Run(what, func(t *testing.T) {
			l := newLocal(t)
			r, err := gommv.New("app", gommv.Options{Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			c, err := r.Counter("first", gommv.MetricOptions{ShortHelp: "the first"})
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Start(); err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			c.Add(42)
			// a copy, so that the writer's own file is not the one cut
			b, err := os.ReadFile(r.Path())
			if err != nil {
				t.Fatal(err)
			}
			if len(b) > 4096 {
				t.Fatalf("file of %d bytes: the value may not share the header's page", len(b))
			}
			path := filepath.Join(l.dir, "copy")
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			id, err := l.a.LookupName(context.Background(), 0, "mmv.copy.first")
			if err != nil {
				t.Fatal(err)
			}
			if set, err := l.value("mmv.copy.first"); err != nil || set.NumVal != 1 {
				t.Fatalf("before: %+v, %v", set, err)
			} else if v, err := pcp.ExtractValue(set.ValFmt, &set.Values[0], pcp.TypeU64, pcp.TypeU64); err != nil || v.ULL != 42 {
				t.Fatalf("before: %d, %v; want 42", v.ULL, err)
			}
			if text, err := l.a.Text(context.Background(), 0, uint32(id), pdu.TextPMID|pdu.TextOneLine); err != nil || text != "the first" {
				t.Fatalf("help before: %q, %v", text, err)
			}
			l.freezeDir(l.dirTime()) // no rescan for the directory's sake
			if err := os.Truncate(path, 64); err != nil {
				t.Fatal(err)
			}
			if what == "fetch" {
				r, err := l.a.Fetch(context.Background(), 0, []pcp.PMID{id})
				if err != nil || r.Sets[0].NumVal != int32(pcp.ErrValue) {
					t.Errorf("after the cut: %+v, %v; want PM_ERR_VALUE", r.Sets[0], err)
				}
			} else {
				if text, err := l.a.Text(context.Background(), 0, uint32(id), pdu.TextPMID|pdu.TextOneLine); !errors.Is(err, pcp.ErrText) {
					t.Errorf("help after the cut: %q, %v; want PM_ERR_TEXT", text, err)
				}
			}
			if l.has("mmv.copy.first") {
				t.Errorf("the next request did not rescan: mmv.copy.first still served")
			}
			if !strings.Contains(l.log.String(), "copy was cut short") {
				t.Errorf("no log line: %q", l.log.String())
			}
		})
	}
}
