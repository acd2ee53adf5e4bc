package pcptest

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sync"
	"testing"
)

// goCommands are the commands GoCommand built in this process, by
// package.
var goCommands struct {
	sync.Mutex
	by map[string]*goCommand
}

type goCommand struct {
	once sync.Once
	bin  string
	err  error
}

// GoCommand builds the module's command pkg (an import path, or "." for
// the package under test) once per test binary into a ProcessDir, for
// tests that run it as a process, and gives the program's path. A failed
// build fails the test. It is safe for concurrent use.
func GoCommand(t testing.TB, pkg string) string {
	t.Helper()
	goCommands.Lock()
	if goCommands.by == nil {
		goCommands.by = map[string]*goCommand{}
	}
	c := goCommands.by[pkg]
	if c == nil {
		c = &goCommand{}
		goCommands.by[pkg] = c
	}
	goCommands.Unlock()
	c.once.Do(func() {
		dir, err := ProcessDir("gopcp-cmd-")
		if err != nil {
			c.err = err
			return
		}
		// The program's own name, as messages print it: the
		// directory's for the package under test.
		name := path.Base(pkg)
		if pkg == "." {
			wd, err := os.Getwd()
			if err != nil {
				c.err = err
				return
			}
			name = filepath.Base(wd)
		}
		c.bin = filepath.Join(dir, name)
		if out, err := exec.Command("go", "build", "-o", c.bin, pkg).CombinedOutput(); err != nil {
			c.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	})
	if c.err != nil {
		t.Fatal(c.err)
	}
	return c.bin
}
