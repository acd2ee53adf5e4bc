package proc

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestDamagedTree: processes with damaged, empty, missing or unreadable
// files lose those values only; every other process keeps all of its.
func TestDamagedTree(t *testing.T) {
	root := fixtureTree(t, 40)
	damageTree(root)
	a := testAgent(t, root)
	metrics := []string{"proc.psinfo.utime", "proc.psinfo.cmd", "proc.id.uid", "proc.io.rchar", "proc.fd.count",
		"proc.memory.size", "proc.psinfo.psargs", "proc.runq.unknown", "proc.psinfo.sname"}
	v := fetchValues(t, a, metrics...)
	for pid := int32(1010); pid < 1040; pid++ {
		for i := range metrics {
			if i == 7 {
				continue
			}
			if _, ok := v[i][pid]; !ok {
				t.Errorf("undamaged pid %d lost %s", pid, metrics[i])
			}
		}
	}
	for _, c := range []struct {
		pid    int32
		metric int
		has    bool
	}{
		{1000, 0, false}, {1001, 0, false}, {1002, 0, false}, {1003, 2, true}, {1004, 3, true},
		{1005, 0, false}, {1005, 6, true}, {1007, 1, true}, {1008, 4, false}, {1009, 5, true},
		{1000, 2, true}, {1002, 3, true},
	} {
		if _, ok := v[c.metric][c.pid]; ok != c.has {
			t.Errorf("pid %d %s: has a value %v, want %v", c.pid, metrics[c.metric], ok, c.has)
		}
	}
	if got := v[1][1007].CP; got != "a) b" {
		t.Errorf("cmd with parentheses: %q", got)
	}
	if got := v[6][1005].CP; got != "<exiting>" {
		t.Errorf("psargs of a process without files: %q", got)
	}
	if got := v[7][pcp.InstNull].L; got != 4 {
		t.Errorf("runq.unknown %d, want 4 (no stat or an empty one)", got)
	}
}

// damageTree damages processes 1000 to 1009 of a fixture tree, each
// in its own way, and adds names that are not processes.
func damageTree(root string) {
	damage := map[int]func(dir string){
		1000: func(d string) { os.WriteFile(filepath.Join(d, "stat"), []byte("1000 (prog"), 0o644) },
		1001: func(d string) { os.WriteFile(filepath.Join(d, "stat"), nil, 0o644) },
		1002: func(d string) { os.Remove(filepath.Join(d, "stat")) },
		1003: func(d string) { os.WriteFile(filepath.Join(d, "status"), []byte("\x00\xff\n:::\nUid:\n"), 0o644) },
		1004: func(d string) {
			os.WriteFile(filepath.Join(d, "io"), []byte(strings.Repeat("rchar: 9999999999999999999999999\n", 3)), 0o644)
		},
		1005: func(d string) { os.RemoveAll(d); os.MkdirAll(d, 0o755) },
		1006: func(d string) {
			os.WriteFile(filepath.Join(d, "cmdline"), []byte(strings.Repeat("x\x00", 5000)), 0o644)
		},
		1007: func(d string) { os.WriteFile(filepath.Join(d, "stat"), []byte("1007 (a) b) R"), 0o644) },
		1008: func(d string) { os.Remove(filepath.Join(d, "fd")) },
		1009: func(d string) { os.WriteFile(filepath.Join(d, "statm"), []byte("\n"), 0o644) },
	}
	for pid, f := range damage {
		f(filepath.Join(root, "proc", strconv.Itoa(pid)))
	}
	os.MkdirAll(filepath.Join(root, "proc", "self"), 0o755)
	os.WriteFile(filepath.Join(root, "proc", "12345678901234"), nil, 0o644)
}

// TestVanishing: processes that go between the listing and the reading
// of their files lose their values; the others keep theirs.
func TestVanishing(t *testing.T) {
	root := fixtureTree(t, 20)
	a, p, err := newAgent(Domain, Options{StatsPath: root, AllAccess: true})
	if err != nil {
		t.Fatal(err)
	}
	_ = a
	p.listed = func() {
		for pid := 1000; pid < 1020; pid += 2 {
			os.RemoveAll(filepath.Join(root, "proc", strconv.Itoa(pid)))
		}
	}
	v := fetchValues(t, a, "proc.psinfo.utime", "proc.io.rchar", "proc.psinfo.pid")
	for pid := int32(1000); pid < 1020; pid++ {
		_, has := v[0][pid]
		_, hasIO := v[1][pid]
		if has != (pid%2 == 1) || hasIO != (pid%2 == 1) {
			t.Errorf("pid %d: values %v %v", pid, has, hasIO)
		}
		if _, ok := v[2][pid]; !ok {
			t.Errorf("pid %d: listed, so proc.psinfo.pid has a value", pid)
		}
	}
	p.listed = nil
	v = fetchValues(t, a, "proc.nprocs")
	if n := v[0][pcp.InstNull].UL; n != 10 {
		t.Errorf("nprocs %d after half went", n)
	}
}

// TestLargeTreeMemoryFlat: a tree of 10,000 processes, a tenth of them
// replaced by new ones between fetches, keeps the agent's memory flat:
// the heap after many rounds is what it was after the first few.
func TestLargeTreeMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 processes")
	}
	const n = 10000
	root := fixtureTreeOf(t, n, true)
	a := testAgent(t, root)
	metrics := []string{"proc.psinfo.utime", "proc.psinfo.stime", "proc.psinfo.cmd", "proc.memory.rss",
		"proc.id.uid_nm", "proc.psinfo.sname", "proc.psinfo.psargs"}
	next := 1000 + n
	round := func() {
		v := fetchValues(t, a, metrics...)
		if len(v[0]) != n {
			t.Fatalf("%d values of %d processes", len(v[0]), n)
		}
		// A tenth of the processes end and as many new ones start.
		ents, _ := os.ReadDir(filepath.Join(root, "proc"))
		gone := 0
		for _, e := range ents {
			if pid, err := strconv.Atoi(e.Name()); err == nil && pid%10 == next%10 && gone < n/10 {
				os.RemoveAll(filepath.Join(root, "proc", e.Name()))
				gone++
			}
		}
		for i := 0; i < gone; i++ {
			fixtureFiles(t, root, next, true)
			next++
		}
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for i := 0; i < 3; i++ {
		round()
	}
	early := heap()
	runtime.KeepAlive(a)
	for i := 0; i < 6; i++ {
		round()
	}
	late := heap()
	runtime.KeepAlive(a)
	t.Logf("heap after 3 rounds %d KiB, after 9 rounds %d KiB", early>>10, late>>10)
	if late > early+early/4 {
		t.Errorf("heap grew from %d to %d bytes as processes came and went", early, late)
	}
}
