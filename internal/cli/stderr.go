package cli

import (
	"io"
	"os"
)

// SetStderr sends what libpcp writes straight to stderr while settling
// the context's options (a damaged archive's warnings) to w instead of
// the process's stderr, so a tool run in-process reports it where the
// rest of its messages go.
func (p *Parsed) SetStderr(w io.Writer) { p.stderr = w }

func (p *Parsed) stderrOut() io.Writer {
	if p.stderr == nil {
		return os.Stderr
	}
	return p.stderr
}
