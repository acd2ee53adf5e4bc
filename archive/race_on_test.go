//go:build race

package archive

// raceEnabled: the race detector slows the package's tests some tenfold,
// so a few read fewer cuts of the same inputs under it.
const raceEnabled = true
