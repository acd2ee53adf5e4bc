//go:build race

package linux

// raceEnabled: the race detector allocates on its own account.
const raceEnabled = true
