package pmlogger

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestFindLocalLoggers reads port map files as pmlc does: live pids and
// the primary link, in name order; dead pids and files without a port
// are left out.
func TestFindLocalLoggers(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "pmlogger")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	me := strconv.Itoa(os.Getpid())
	for name, data := range map[string]string{
		me:         "4330\nhost\n/a/b\nnote\n",
		"primary":  "4331\nhost\n/a/c\n\n",
		"99999999": "4332\nhost\n/a/d\n",
		"junk":     "4333\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	all, err := FindLocalLoggers(tmp, AllPIDs)
	if err != nil || len(all) != 2 {
		t.Fatalf("all: %v %v", all, err)
	}
	if all[0].Port != 4330 || all[0].Note != "note" || all[0].Archive != "/a/b" || all[1].PID != PrimaryPID || all[1].Port != 4331 {
		t.Errorf("all: %+v", all)
	}
	if p, err := FindLocalLoggers(tmp, PrimaryPID); err != nil || len(p) != 1 || p[0].Port != 4331 {
		t.Errorf("primary: %+v %v", p, err)
	}
	if p, err := FindLocalLoggers(tmp, 99999999); err != nil || len(p) != 0 {
		t.Errorf("dead pid: %+v %v", p, err)
	}
	if p, err := FindLocalLoggers(filepath.Join(tmp, "none"), AllPIDs); err != nil || len(p) != 0 {
		t.Errorf("no directory: %+v %v", p, err)
	}
}

// FuzzPortMapFile reads any port map file without panicking.
func FuzzPortMapFile(f *testing.F) {
	f.Add("4330\nhost\n/a/b\nnote\n")
	f.Add("x\n")
	f.Add("")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data string) {
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		lp, ok := readPortMap(path, "primary")
		if ok && lp.PID != PrimaryPID {
			t.Fatalf("%+v", lp)
		}
	})
}
