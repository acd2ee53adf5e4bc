// Package goroutines is a test helper for the checks that a component's
// goroutines end with it: the stacks of the goroutines running a package's
// code, from one dump of every goroutine's stack.
package goroutines

import (
	"runtime"
	"strings"
	"time"
)

// In returns the stack of each goroutine but the caller's with a frame of
// a function whose full name starts with one of prefixes (e.g.
// "github.com/gopcp/gopcp/agents/trace."). A goroutine that has left that
// code is not returned even if it has not yet exited.
func In(prefixes ...string) []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []string
	// The dump starts with the caller's goroutine, which is left out: a
	// test in one of the packages looked for has a frame there.
	for _, g := range strings.Split(string(buf), "\n\n")[1:] {
		if inCode(g, prefixes) {
			out = append(out, g)
		}
	}
	return out
}

// inCode reports whether the stack g has a frame of a function whose name
// starts with one of prefixes: frames' function lines start at the line's
// start, their file lines with a tab.
func inCode(g string, prefixes []string) bool {
	for _, line := range strings.Split(g, "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(line, p) {
				return true
			}
		}
	}
	return false
}

// Left is In for a check that a component's goroutines ended with it. A
// goroutine that signals its end from within that code (a deferred close
// of a channel its owner waits on) is still there for a moment after its
// owner returns, so the dump is taken again, for up to settle, until none
// is found: one still there after that was left behind.
func Left(prefixes ...string) []string {
	deadline := time.Now().Add(settle)
	for {
		out := In(prefixes...)
		if len(out) == 0 || time.Now().After(deadline) {
			return out
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// settle is how long Left waits for goroutines on their way out.
const settle = 2 * time.Second
