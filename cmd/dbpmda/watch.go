package main

import (
	"io"
	"os"
	"os/exec"

	"github.com/gopcp/gopcp/pcp"
)

// watchScript is the command PCP's dbpmda gives system(3) for "watch":
// an xterm in the background following the file with tail -f. The file
// name is the script's $1, not pasted into it, so that a name with
// quotes or semicolons is a name and not more shell.
const watchScript = `xterm -hold -title "dbpmda watch $1" -geom 80x16 -bg dodgerblue4 -e tail -f "$1" &`

// watch opens the window as PCP's dbpmda does, through the shell, which
// returns at once as the window stays. Without xterm or a display it is
// the shell's or xterm's own complaint on standard error that tells the
// user, as with PCP's; dbpmda itself only reports a shell it could not
// run.
func (s *session) watch(path string) {
	cmd := exec.Command("/bin/sh", "-c", watchScript, "sh", path)
	// The window outlives the shell and holds its descriptors: a pipe
	// here would keep Wait waiting for the window to close.
	cmd.Stdout = fileOr(s.stdout)
	cmd.Stderr = fileOr(s.stderr)
	if err := cmd.Run(); err != nil {
		s.errorf("watch cmd: %s failed: %s\n", watchCommand(path), pcp.TextOf(err))
	}
}

// fileOr is w when it is a file the shell can inherit, otherwise nothing
// (the shell's output is dropped).
func fileOr(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok {
		return f
	}
	return nil
}

// watchCommand is the command line as PCP's dbpmda words it in its error.
func watchCommand(path string) string {
	return `xterm -hold -title "dbpmda watch ` + path + `" -geom 80x16 -bg dodgerblue4 -e tail -f ` + path + ` &`
}
