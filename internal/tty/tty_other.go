//go:build !linux

package tty

import "os"

// IsTerminal is isatty(3) as far as a file's mode tells it.
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// EchoOff does nothing where the terminal's modes are not known here.
func EchoOff(*os.File) func() { return func() {} }
