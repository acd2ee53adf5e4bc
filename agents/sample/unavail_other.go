//go:build !linux

package sample

import "os"

// unavailable says whether unavailFile exists.
func unavailable() bool {
	_, err := os.Stat(unavailFile)
	return err == nil
}
