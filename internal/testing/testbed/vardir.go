package testbed

import (
	"os"
	"path/filepath"
)

// privateParts are the parts of PCP_VAR_DIR a bed must not share with the
// system, each made an empty directory of the bed's own:
//
//   - config/pmda, where agents (PCP's and ours) keep their instance cache
//     files: a bed's Linux agent would otherwise rewrite the system's 60.N
//     files;
//   - pmcd, where the system's pmdaroot listens (root.socket): PCP's pmcd
//     that finds it asks it to start the bed's pipe agents, which then run
//     outside the bed as the system's children, with the system's
//     environment and working directory, logging into the system's
//     PCP_LOG_DIR;
//   - tmp, the system's PCP_TMP_DIR (pmlogger port maps, mmv files).
var privateParts = []string{"config/pmda", "pmcd", "tmp"}

// VarDirEnv makes dir/var a private variable directory for a test that
// runs PCP's agents or tools outside a bed (under dbpmda, for one) and
// returns its environment setting, "PCP_VAR_DIR=dir/var": an agent saving
// its instance cache then writes there, never into the system's
// config/pmda. It is the system's directory in every other part, as a
// bed's is. Everyone may write its private parts, since PCP's agents drop
// to user pcp before they save; dir must be one they can reach.
func VarDirEnv(dir string) (string, error) {
	in, err := Find()
	if err != nil {
		return "", err
	}
	v, err := privateVarDir(in.Var("PCP_VAR_DIR"), filepath.Join(dir, "var"))
	if err != nil {
		return "", err
	}
	for _, p := range privateParts {
		if err := os.Chmod(filepath.Join(v, p), 0o1777); err != nil {
			return "", err
		}
	}
	return "PCP_VAR_DIR=" + v, nil
}

// privateVarDir makes a PCP_VAR_DIR for the bed that is the system's in
// every part but privateParts. Everything else is a symbolic link to the
// system's directory, so namespaces, agents' help and the derived and
// pmlogger configurations read the same as outside the bed.
func privateVarDir(system, dir string) (string, error) {
	// false: left empty; true: a parent of a private part, whose other
	// entries are linked one by one.
	private := make(map[string]bool)
	for _, p := range privateParts {
		if err := os.MkdirAll(filepath.Join(dir, p), 0o755); err != nil {
			return "", err
		}
		private[p] = false
		for d := filepath.Dir(p); d != "."; d = filepath.Dir(d) {
			private[d] = true
		}
	}
	if err := linkAllBut(system, dir, "", private); err != nil {
		return "", err
	}
	return dir, nil
}

// linkAllBut links each entry of system/rel into dir/rel but those private
// names: it descends into the parents and leaves the rest alone.
func linkAllBut(system, dir, rel string, private map[string]bool) error {
	ents, err := os.ReadDir(filepath.Join(system, rel))
	if err != nil {
		if rel != "" && os.IsNotExist(err) {
			return nil
		}
		return err
	}
	for _, e := range ents {
		name := filepath.Join(rel, e.Name())
		if descend, ok := private[name]; ok {
			if descend {
				if err := linkAllBut(system, dir, name, private); err != nil {
					return err
				}
			}
			continue
		}
		if err := os.Symlink(filepath.Join(system, name), filepath.Join(dir, name)); err != nil && !os.IsExist(err) {
			return err
		}
	}
	return nil
}
