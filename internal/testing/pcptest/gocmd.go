package pcptest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Build says how GoCommandWith builds a command; the zero Build is how
// GoCommand builds one.
type Build struct {
	// Env is added to the go tool's environment (CGO_ENABLED=0, for a
	// program without libc).
	Env []string
	// Dir is the directory the go tool runs in, against which a relative
	// package is read: another checkout of the module, to compare a
	// change with. Empty is the test's own directory.
	Dir string
	// Companion puts pmdalocal, built the same way, beside the command,
	// as an install does: a tool run with local contexts (-L, -K) finds
	// its agents there, and without it says it has none.
	Companion bool
}

// goCommands are the commands built in this process, by package and
// Build.
var goCommands struct {
	sync.Mutex
	by map[string]*goCommand
}

type goCommand struct {
	once sync.Once
	bin  string
	err  error
}

// GoCommand builds the module's command pkg (an import path, or a path
// relative to the test's directory: "." for the package under test) once
// per test binary into a ProcessDir, for tests that run it as a process,
// and gives the program's path. A failed build fails the test. It is safe
// for concurrent use.
func GoCommand(t testing.TB, pkg string) string {
	t.Helper()
	return GoCommandWith(t, pkg, Build{})
}

// GoCommandWith is GoCommand built as b says; each different b is a build
// of its own.
func GoCommandWith(t testing.TB, pkg string, b Build) string {
	t.Helper()
	bin, err := BuildGoCommand(pkg, b)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// BuildGoCommand is GoCommandWith for a helper that has no test at hand:
// it returns the build's error.
func BuildGoCommand(pkg string, b Build) (string, error) {
	key, err := buildKey(pkg, b)
	if err != nil {
		return "", err
	}
	goCommands.Lock()
	if goCommands.by == nil {
		goCommands.by = map[string]*goCommand{}
	}
	c := goCommands.by[key]
	if c == nil {
		c = &goCommand{}
		goCommands.by[key] = c
	}
	goCommands.Unlock()
	c.once.Do(func() { c.bin, c.err = buildGo(pkg, b, buildTimeout) })
	return c.bin, c.err
}

// buildKey names a build for the cache: a package named by a path is
// named by its absolute directory (the go tool then finds its module
// from there whatever Dir is), so that one package named two ways is
// built once; an import path is read in Dir's module.
func buildKey(pkg string, b Build) (string, error) {
	dir := b.Dir
	switch {
	case filepath.IsAbs(pkg):
		pkg, dir = filepath.Clean(pkg), ""
	case strings.HasPrefix(pkg, "."):
		abs, err := filepath.Abs(filepath.Join(b.Dir, pkg))
		if err != nil {
			return "", err
		}
		pkg, dir = abs, ""
	}
	key := append([]string{pkg, dir, fmt.Sprint(b.Companion)}, b.Env...)
	return strings.Join(key, "\x00"), nil
}

// buildTimeout bounds one build: a go tool stuck (a lock held by a
// killed build, a module fetch that hangs) fails the test that asked
// with the reason, well before the test binary's own timeout, which
// would report no more than that it was waiting here. A cold build of
// the largest command takes under a minute on a loaded host.
const buildTimeout = 5 * time.Minute

// buildGo runs the go tool for pkg into a new ProcessDir, for at most
// limit.
func buildGo(pkg string, b Build, limit time.Duration) (string, error) {
	name, err := commandName(pkg, b.Dir)
	if err != nil {
		return "", err
	}
	dir, err := ProcessDir("gopcp-cmd-")
	if err != nil {
		return "", err
	}
	// pmcd may start an agent built here as another user.
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, name)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool(), "build", "-o", bin, pkg)
	cmd.Dir = b.Dir
	if len(b.Env) > 0 {
		cmd.Env = append(os.Environ(), b.Env...)
	}
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return "", fmt.Errorf("go build %s: not done within its time limit of %v: %v\n%s", pkg, limit, err, out)
	}
	if err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
	}
	if b.Companion {
		if err := addCompanion(dir, b); err != nil {
			return "", err
		}
	}
	return bin, nil
}

// companionPkg is the program a tool's local contexts run their agents
// in, looked for beside the tool first.
const companionPkg = "github.com/gopcp/gopcp/cmd/pmdalocal"

// addCompanion links pmdalocal, built once per test binary as b says,
// into dir.
func addCompanion(dir string, b Build) error {
	b.Companion = false
	companion, err := BuildGoCommand(companionPkg, b)
	if err != nil {
		return err
	}
	return os.Symlink(companion, filepath.Join(dir, path.Base(companionPkg)))
}

// commandName is the program's own name, as its messages print it: the
// last element of an import path, or of the directory a relative path
// names.
func commandName(pkg, dir string) (string, error) {
	if !strings.HasPrefix(pkg, ".") {
		return path.Base(pkg), nil
	}
	abs, err := filepath.Abs(filepath.Join(dir, pkg))
	if err != nil {
		return "", err
	}
	return filepath.Base(abs), nil
}

// goTool is the go program: the one on PATH (go test puts its own
// first), else the one under GOROOT.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	if root := os.Getenv("GOROOT"); root != "" {
		return filepath.Join(root, "bin", "go")
	}
	return "go"
}
