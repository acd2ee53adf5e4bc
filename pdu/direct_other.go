//go:build !linux

package pdu

func direct(s Stream) Stream { return s }
