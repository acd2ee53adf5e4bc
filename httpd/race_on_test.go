//go:build race

package httpd

// raceEnabled: the race detector allocates on its own account.
const raceEnabled = true
