package testbed

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPrivateVarDir: the parts a bed must own are empty directories of
// its own, everything else of the system's PCP_VAR_DIR is linked.
func TestPrivateVarDir(t *testing.T) {
	sys := t.TempDir()
	for _, f := range []string{"pmns/root", "config/pmda/60.1", "config/pmlogger/config.default", "pmcd/root.socket", "tmp/pmlogger/primary", "pmdas/sample/help"} {
		p := filepath.Join(sys, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir, err := privateVarDir(sys, filepath.Join(t.TempDir(), "var"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path   string
		linked bool
	}{
		{"pmns", true},
		{"pmdas", true},
		{"config", false},
		{"config/pmlogger", true},
		{"config/pmda", false},
		{"pmcd", false},
		{"tmp", false},
	} {
		st, err := os.Lstat(filepath.Join(dir, tc.path))
		if err != nil {
			t.Errorf("%s: %v", tc.path, err)
			continue
		}
		if linked := st.Mode()&os.ModeSymlink != 0; linked != tc.linked {
			t.Errorf("%s: linked %v, want %v", tc.path, linked, tc.linked)
		}
	}
	for _, empty := range []string{"config/pmda", "pmcd", "tmp"} {
		if ents, _ := os.ReadDir(filepath.Join(dir, empty)); len(ents) != 0 {
			t.Errorf("%s holds %d entries of the system's, want none", empty, len(ents))
		}
	}
}

// TestVarDirEnv: the setting names dir/var, whose private parts everyone
// may write (PCP's agents save their caches as user pcp) and whose other
// parts are the system's.
func TestVarDirEnv(t *testing.T) {
	in := Need(t)
	dir := t.TempDir()
	env, err := VarDirEnv(dir)
	if err != nil {
		t.Fatal(err)
	}
	v := filepath.Join(dir, "var")
	if env != "PCP_VAR_DIR="+v {
		t.Fatalf("got %q, want PCP_VAR_DIR=%s", env, v)
	}
	st, err := os.Lstat(filepath.Join(v, "config", "pmda"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode()&os.ModeSymlink != 0 || st.Mode().Perm() != 0o777 {
		t.Errorf("config/pmda: mode %v, want a directory everyone may write", st.Mode())
	}
	if target, err := os.Readlink(filepath.Join(v, "pmns")); err != nil || target != filepath.Join(in.Var("PCP_VAR_DIR"), "pmns") {
		t.Errorf("pmns: link to %q (%v), want the system's", target, err)
	}
}
