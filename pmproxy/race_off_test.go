//go:build !race

package pmproxy

const raceEnabled = false
