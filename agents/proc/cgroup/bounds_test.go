package cgroup

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// v2Root writes a cgroup2-only tree with the given cgroups (paths below
// the mount), each with a cpu.stat.
func v2Root(t testing.TB, groups []string) string {
	t.Helper()
	root := t.TempDir()
	write := func(p, s string) {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("proc/mounts", "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n")
	write("sys/fs/cgroup/cpu.stat", "usage_usec 1\n")
	for _, g := range groups {
		write("sys/fs/cgroup/"+g+"/cpu.stat", "usage_usec 2\n")
	}
	return root
}

var cpuUsage = pcp.NewPMID(Domain, ClusterCPUStat, 2)

func active(t testing.TB, s *Source, serial uint32) int {
	insts, err := s.Instances(pcp.NewInDom(Domain, serial))
	if err != nil {
		t.Fatal(err)
	}
	return len(insts)
}

// TestMaxCgroups: a walk visits at most MaxCgroups cgroups, however many
// the tree has.
func TestMaxCgroups(t *testing.T) {
	var groups []string
	for i := range 50 {
		groups = append(groups, fmt.Sprintf("g%d/sub", i))
	}
	root := v2Root(t, groups)
	for _, tc := range []struct{ max, want int }{{1, 1}, {10, 10}, {0, 101}, {1000, 101}} {
		s := New(Options{Root: root, MaxCgroups: tc.max})
		s.Refresh([]pcp.PMID{cpuUsage})
		if got := active(t, s, InDomCgroup2); got != tc.want {
			t.Errorf("MaxCgroups %d: %d cgroups, want %d", tc.max, got, tc.want)
		}
	}
}

// TestCachesBounded: cgroups that come and go do not grow the caches past
// keepFactor*MaxCgroups; the ones present keep their numbers.
func TestCachesBounded(t *testing.T) {
	root := v2Root(t, []string{"stay"})
	s := New(Options{Root: root, MaxCgroups: 10})
	s.Refresh([]pcp.PMID{cpuUsage})
	stay, _, _, err := s.caches[InDomCgroup2].LookupName("/stay")
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(root, "sys/fs/cgroup")
	for i := range 200 {
		d := filepath.Join(base, fmt.Sprintf("c%d", i))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		s.Refresh([]pcp.PMID{cpuUsage})
		if err := os.Remove(d); err != nil {
			t.Fatal(err)
		}
		if n := len(s.seen[InDomCgroup2]); n > keepFactor*10+1 {
			t.Fatalf("after %d cgroups came and went the cache holds %d names", i+1, n)
		}
	}
	s.Refresh([]pcp.PMID{cpuUsage})
	got, state, _, err := s.caches[InDomCgroup2].LookupName("/stay")
	if err != nil || got != stay || state != 1 {
		t.Errorf("/stay is %d (%v, %v), was %d", got, state, err, stay)
	}
	if n := active(t, s, InDomCgroup2); n != 2 {
		t.Errorf("%d active cgroups, want 2", n)
	}
}

// TestLongLines: lines past pmdaproc's 4096-byte buffers are read in
// pieces as fgets reads them; a file past maxFile is read that far.
func TestLongLines(t *testing.T) {
	long := strings.Repeat("x", 5000)
	root := v2Root(t, nil)
	cpu := filepath.Join(root, "sys/fs/cgroup/cpu.stat")
	body := long + " 7\nusage_usec 9\n" + strings.Repeat("y", 4095-len("user_usec ")) + "user_usec 3\n"
	if err := os.WriteFile(cpu, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s := New(Options{Root: root})
	s.Refresh([]pcp.PMID{cpuUsage})
	m := s.metricOf(cpuUsage)
	a, err := s.Fetch(&m, 0)
	if err != nil || a.ULL != 9 {
		t.Errorf("usage %d, %v; want 9", a.ULL, err)
	}
	big := make([]byte, maxFile+100)
	for i := range big {
		big[i] = '\n'
	}
	copy(big[maxFile-20:], "usage_usec 5\n")
	if err := os.WriteFile(cpu, big, 0o644); err != nil {
		t.Fatal(err)
	}
	s.Refresh([]pcp.PMID{cpuUsage})
	if a, err := s.Fetch(&m, 0); err != nil || a.ULL != 5 {
		t.Errorf("usage %d, %v; want 5 from within the bound", a.ULL, err)
	}
	copy(big[maxFile-5:], "usage_usec 6\n")
	if err := os.WriteFile(cpu, big, 0o644); err != nil {
		t.Fatal(err)
	}
	s.Refresh([]pcp.PMID{cpuUsage})
	if a, err := s.Fetch(&m, 0); err != nil || a.ULL != 5 {
		t.Errorf("usage %d, %v; want 5, the line past the bound unread", a.ULL, err)
	}
}

// metricOf is the table entry of id.
func (s *Source) metricOf(id pcp.PMID) pmda.Metric {
	for _, m := range s.metrics {
		if m.Desc.PMID == id {
			return m
		}
	}
	return pmda.Metric{}
}

// TestRefreshContainer: a container's refresh reads only the cgroups whose
// path starts with, or whose last component starts with, its cgroup.
func TestRefreshContainer(t *testing.T) {
	root := v2Root(t, []string{"machine.slice/libpod-abc.scope", "machine.slice/libpod-abc.scope/inner", "system.slice/other", "libpod-abc.scope"})
	s := New(Options{Root: root})
	s.RefreshContainer([]pcp.PMID{cpuUsage}, "machine.slice/libpod-abc")
	insts, _ := s.Instances(pcp.NewInDom(Domain, InDomCgroup2))
	var got []string
	for _, in := range insts {
		got = append(got, in.Name)
	}
	want := "/machine.slice/libpod-abc.scope /machine.slice/libpod-abc.scope/inner"
	if strings.Join(got, " ") != want {
		t.Errorf("container's cgroups %q, want %q", got, want)
	}
	s.RefreshContainer([]pcp.PMID{cpuUsage}, "libpod-abc")
	got = got[:0]
	insts, _ = s.Instances(pcp.NewInDom(Domain, InDomCgroup2))
	for _, in := range insts {
		got = append(got, in.Name)
	}
	want = "/machine.slice/libpod-abc.scope /libpod-abc.scope"
	if strings.Join(got, " ") != want {
		t.Errorf("by last component: %q, want %q", got, want)
	}
	s.Refresh([]pcp.PMID{cpuUsage})
	if n := active(t, s, InDomCgroup2); n != 7 {
		t.Errorf("%d cgroups after a refresh for no container, want 7", n)
	}
}

func TestVersion(t *testing.T) {
	for tree, want := range map[string]int{"v2": 2, "v1": 1, "hybrid": 1} {
		if got := New(Options{Root: buildTree(t, tree)}).Version(); got != want {
			t.Errorf("%s: version %d, want %d", tree, got, want)
		}
	}
	if got := New(Options{Root: t.TempDir()}).Version(); got != 0 {
		t.Errorf("no /proc/mounts: version %d, want 0", got)
	}
}

// TestReadDir: the directory reader lists what os.ReadDir lists, with the
// types.
func TestReadDir(t *testing.T) {
	dir := t.TempDir()
	for i := range 300 {
		name := filepath.Join(dir, fmt.Sprintf("entry-with-a-long-name-%03d", i))
		if i%2 == 0 {
			os.Mkdir(name, 0o755)
		} else {
			os.WriteFile(name, nil, 0o644)
		}
	}
	os.Symlink("x", filepath.Join(dir, "link"))
	got, _, ok := readDir(dir, make([]byte, 100), nil) // a small buffer grows
	if !ok {
		t.Fatal("readDir failed")
	}
	want, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]uint8{}
	for _, e := range got {
		types[e.name] = e.typ
	}
	if len(types) != len(want)+2 { // . and ..
		t.Fatalf("%d entries, want %d and . and ..", len(types), len(want))
	}
	for _, e := range want {
		typ, ok := types[e.Name()]
		switch {
		case !ok:
			t.Errorf("%s missing", e.Name())
		case e.IsDir() && typ != syscall.DT_DIR, e.Type().IsRegular() && typ != syscall.DT_REG,
			e.Type()&os.ModeSymlink != 0 && typ != syscall.DT_LNK:
			t.Errorf("%s: type %d", e.Name(), typ)
		}
	}
	if _, _, ok := readDir(filepath.Join(dir, "entry-with-a-long-name-001"), nil, nil); ok {
		t.Error("a file listed as a directory")
	}
}
