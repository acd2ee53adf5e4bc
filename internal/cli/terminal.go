package cli

import (
	"os"

	"github.com/gopcp/gopcp/internal/tty"
)

// IsTerminal is isatty(3), internal/tty's, which pmapi's console shares.
func IsTerminal(f *os.File) bool { return tty.IsTerminal(f) }
