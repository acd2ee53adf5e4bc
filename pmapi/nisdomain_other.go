//go:build !linux

package pmapi

// nisDomain is unknown off Linux; the label falls back to "localdomain".
func nisDomain() string { return "" }
