package linux

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMDStatus checks disk.md.status from sysfs against what mdadm's
// --detail --test would exit with (times 256, as a wait status), and -1
// when there is no mdadm, as PCP's agent reports.
func TestMDStatus(t *testing.T) {
	dir := t.TempDir()
	mdadm := filepath.Join(dir, "mdadm")
	if err := os.WriteFile(mdadm, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	arrays := map[string][2]string{ // array_state, degraded
		"md0": {"clean", "0"},
		"md1": {"active", "1"},
		"md2": {"inactive", "0"},
		"md3": {"broken", "2"},
	}
	for name, f := range arrays {
		d := filepath.Join(dir, "sys", "block", name, "md")
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "array_state"), []byte(f[0]+"\n"), 0o644)
		os.WriteFile(filepath.Join(d, "degraded"), []byte(f[1]+"\n"), 0o644)
	}
	x := &Linux{sys: filepath.Join(dir, "sys")}
	tests := []struct {
		mdadm, name string
		want        int32
	}{
		{mdadm, "md0", 0},
		{mdadm, "md1", 1 << 8},
		{mdadm, "md2", 2 << 8},
		{mdadm, "md3", 2 << 8},
		{mdadm, "md9", 4 << 8},
		{filepath.Join(dir, "absent"), "md0", -1},
	}
	for _, tt := range tests {
		x.mdadm = tt.mdadm
		if got := x.mdStatus(tt.name); got != tt.want {
			t.Errorf("%s with mdadm %s: %d, want %d", tt.name, tt.mdadm, got, tt.want)
		}
	}
}
