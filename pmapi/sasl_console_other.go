//go:build !linux

package pmapi

import "os"

// isTerminal is false where the terminal cannot be asked: the answer is
// read without a prompt, as from a file.
func isTerminal(*os.File) bool { return false }

func echoOff(*os.File) func() { return func() {} }
