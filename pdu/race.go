//go:build race

package pdu

const raceEnabled = true
