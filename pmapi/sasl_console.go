package pmapi

import (
	"io"
	"os"

	"github.com/gopcp/gopcp/internal/tty"
)

// WithConsole lets authentication ask for a user name or password the
// host specification lacks, as libpcp does: it opens path (PCP's
// PCP_CONSOLE, /dev/tty when unset), shows the prompt when that is a
// terminal (without echo for a password) and reads one line (a regular
// file named there is emptied first, as libpcp opens it for writing the
// prompt, so its answers are empty). "" (the
// default) or "none" never asks: a missing user name then fails with
// SASL's "invalid parameter supplied" and a missing password is empty, as
// with libpcp when no terminal opens.
func WithConsole(path string) Option {
	return func(o *options) { o.console = path }
}

// maxConsoleLine is libpcp's bound on an answer (fgets of 255 bytes).
const maxConsoleLine = 254

// askConsole asks on the console for one value, as libpcp's
// __pmGetAttrConsole does: ok is false when there is no console to ask.
func askConsole(path, prompt string, secret bool) (string, bool) {
	if path == "" || path == "none" {
		return "", false
	}
	in, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer in.Close()
	// fopen(path, "w"), as libpcp: a regular file is emptied before the
	// answer is read from it
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return "", false
	}
	defer out.Close()
	terminal := tty.IsTerminal(in)
	if terminal {
		io.WriteString(out, prompt)
		if secret {
			restore := tty.EchoOff(in)
			defer func() {
				io.WriteString(out, "\n")
				restore()
			}()
		}
	}
	return readConsoleLine(in), true
}

// readConsoleLine reads an answer as libpcp's fgets does: up to a newline
// or maxConsoleLine bytes, a byte at a time so nothing past it is taken.
// libpcp drops one trailing '\n' or '\r', none from a line that is
// nothing else.
func readConsoleLine(in io.Reader) string {
	line := make([]byte, 0, maxConsoleLine)
	var b [1]byte
	for len(line) < maxConsoleLine {
		if n, err := in.Read(b[:]); n == 0 || err != nil {
			break
		}
		line = append(line, b[0])
		if b[0] == '\n' {
			break
		}
	}
	if n := len(line); n > 1 && (line[n-1] == '\n' || line[n-1] == '\r') {
		line = line[:n-1]
	}
	return string(line)
}
