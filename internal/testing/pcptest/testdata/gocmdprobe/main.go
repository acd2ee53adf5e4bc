// Command gocmdprobe prints its own name and the CGO_ENABLED it was built
// with, for the tests of GoCommand.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
)

func main() {
	cgo := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "CGO_ENABLED" {
				cgo = s.Value
			}
		}
	}
	fmt.Printf("%s CGO_ENABLED=%s\n", filepath.Base(os.Args[0]), cgo)
}
