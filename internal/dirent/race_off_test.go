//go:build !race

package dirent

// raceEnabled: the race detector allocates on its own account.
const raceEnabled = false
