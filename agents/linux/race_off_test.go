//go:build !race

package linux

const raceEnabled = false
