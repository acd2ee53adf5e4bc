//go:build !linux

package pmval

// writable cannot poll here: the waiting lines are written, and a full
// pipe holds the process until it drains.
func writable(int) bool { return true }

// canPoll is false: a handler cannot tell a write that goes on from one
// blocked on a full pipe, so it ends the process at once.
const canPoll = false
