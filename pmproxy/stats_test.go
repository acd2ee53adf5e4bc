package pmproxy

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/mmv/mmvfile"
)

// readStat returns a metric's value in one of the stats files.
func readStat(t *testing.T, path, metric string) uint64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := mmvfile.Parse(b, mmvfile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range f.Values {
		for _, m := range f.Metrics {
			if uint64(m.Offset) == v.Metric && m.Name == metric {
				atom, _ := f.Value(v)
				return atom
			}
		}
	}
	t.Fatalf("%s: no %s", path, metric)
	return 0
}

// TestStats: the server file is written with the process's figures, the
// webgroup file only by StartWebgroup (a sweep before it is dropped), a
// sweep shows, Close removes them, and a file another live process writes
// is left alone.
func TestStats(t *testing.T) {
	dir := t.TempDir()
	s, err := StartStats(dir)
	if err != nil {
		t.Fatal(err)
	}
	server, webgroup := filepath.Join(dir, "server"), filepath.Join(dir, "webgroup")
	if got := readStat(t, server, "pid"); got != uint64(os.Getpid()) {
		t.Errorf("pid %d, want %d", got, os.Getpid())
	}
	if readStat(t, server, "mem.maxrss") == 0 {
		t.Error("mem.maxrss is 0")
	}
	if u, sy, tot := readStat(t, server, "cpu.user"), readStat(t, server, "cpu.sys"), readStat(t, server, "cpu.total"); tot != u+sy {
		t.Errorf("cpu.total %d is not cpu.user %d + cpu.sys %d", tot, u, sy)
	}
	s.Sweep(1, 1)
	if _, err := os.Stat(webgroup); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("webgroup before StartWebgroup: %v", err)
	}
	if err := s.StartWebgroup(); err != nil {
		t.Fatal(err)
	}
	s.Sweep(5, 2)
	if sc, dr := readStat(t, webgroup, "gc.context.scans"), readStat(t, webgroup, "gc.context.drops"); sc != 5 || dr != 2 {
		t.Errorf("scans %d drops %d, want 5 2", sc, dr)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{server, webgroup} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s after Close: %v", p, err)
		}
	}

	// A file naming another live process (pid 1) is not taken.
	s, err = StartStats(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(server)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	binary.LittleEndian.PutUint32(b[32:], 1) // the header's process
	if err := os.WriteFile(server, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := StartStats(dir); !errors.Is(err, ErrStatsOwned) {
		t.Errorf("another process's file: %v, want ErrStatsOwned", err)
	}
	if after, _ := os.ReadFile(server); string(after) != string(b) {
		t.Error("another process's file was changed")
	}
	// A missing directory is an error, as PCP's pmproxy then has no stats.
	if _, err := StartStats(filepath.Join(dir, "nosuch")); err == nil {
		t.Error("StartStats in a missing directory succeeded")
	}
}
