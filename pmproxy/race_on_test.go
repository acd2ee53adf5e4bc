//go:build race

package pmproxy

// raceEnabled: the race detector allocates on its own account.
const raceEnabled = true
