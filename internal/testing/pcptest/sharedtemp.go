package pcptest

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// sharedTempFallback is where SharedTemp turns when $TMPDIR is closed to
// user pcp: the system's temporary directory, open to all and sticky, in
// which os.MkdirTemp's names are safe from other users.
const sharedTempFallback = "/tmp"

// shared is SharedTemp's answer, settled once a process.
var shared struct {
	once sync.Once
	dir  string
	err  error
}

// init points $TMPDIR at SharedTemp for the whole test process when the
// two differ, before TestMain and before the variables of the package
// under test are set (some mask paths under os.TempDir()): then the
// directories tests make (os.MkdirTemp, opened to all) are ones PCP's
// daemons can reach too, and every test binary that links this package,
// through testbed or the other helpers, gets it with no TestMain of its
// own.
func init() {
	dir, err := SharedTemp()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	if dir != os.TempDir() {
		os.Setenv("TMPDIR", dir)
	}
}

// SharedTemp returns the directory under which a test makes what PCP's
// daemons and agents must reach: test beds, commands built for pmcd to
// start, agents' help and namespaces. Run as root, PCP's pmcd and agents
// drop to user pcp, which can reach a file only if every directory above
// it lets others search it; a private $TMPDIR (mode 700, as mktemp -d
// makes it) does not. So as root with such a $TMPDIR, SharedTemp is
// /tmp, as if $TMPDIR were unset; otherwise it is $TMPDIR. What is made
// there is removed by its maker (a bed's Close, Main, t.Cleanup), as it
// would be in $TMPDIR.
func SharedTemp() (string, error) {
	shared.once.Do(func() {
		shared.dir, shared.err = settleSharedTemp(os.TempDir(), sharedTempFallback, os.Geteuid() == 0)
	})
	return shared.dir, shared.err
}

// settleSharedTemp is SharedTemp's choice: tmp itself unless asRoot and
// some directory on tmp's path cannot be searched by others, else
// fallback, which must be open to all.
func settleSharedTemp(tmp, fallback string, asRoot bool) (string, error) {
	if !asRoot || searchableByAll(tmp) {
		return tmp, nil
	}
	if !searchableByAll(fallback) {
		return tmp, fmt.Errorf("pcptest: user pcp can reach neither $TMPDIR %s nor %s", tmp, fallback)
	}
	return fallback, nil
}

// searchableByAll reports whether a user with no claim on dir or the
// directories above it (neither owner nor group) may pass through them
// all, symbolic links resolved: their search (x) bit for others. Group
// and ACL grants are not looked at, so a tree open to pcp by those alone
// is taken as closed (and /tmp used instead).
func searchableByAll(dir string) bool {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return false
	}
	for d := real; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o001 == 0 {
			return false
		}
		if d == filepath.Dir(d) {
			return true
		}
	}
}
