package testbed

import (
	"os"
	"path/filepath"
)

// privateVarDir makes a PCP_VAR_DIR for the bed that is the system's in
// every part but config/pmda, where agents (PCP's and ours) keep their
// instance cache files: without it a test bed's Linux agent would rewrite
// the system's 60.N files. Everything else is a symbolic link to the
// system's directory, so namespaces, agents' help and the derived and
// pmlogger configurations read the same as outside the bed.
func privateVarDir(system, dir string) (string, error) {
	ents, err := os.ReadDir(system)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(dir, "config", "pmda"), 0o755); err != nil {
		return "", err
	}
	for _, e := range ents {
		if e.Name() == "config" {
			continue
		}
		if err := os.Symlink(filepath.Join(system, e.Name()), filepath.Join(dir, e.Name())); err != nil && !os.IsExist(err) {
			return "", err
		}
	}
	conf, err := os.ReadDir(filepath.Join(system, "config"))
	if err != nil && !os.IsNotExist(err) {
		return "", err
	}
	for _, e := range conf {
		if e.Name() == "pmda" {
			continue
		}
		if err := os.Symlink(filepath.Join(system, "config", e.Name()), filepath.Join(dir, "config", e.Name())); err != nil && !os.IsExist(err) {
			return "", err
		}
	}
	return dir, nil
}
