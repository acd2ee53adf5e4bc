//go:build !linux

package pdu

func direct(s Stream) Stream { return s }

func isDirect(Stream) bool { return false }
