package main

import "github.com/gopcp/gopcp/internal/getopt"

// strtol0 is C's strtol(s, NULL, 0) as PCP's pmproxy reads -L and -r
// (getopt.CStrtol): whatever follows the digits is ignored, and no
// digits read as 0.
func strtol0(s string) int64 {
	n, _, _ := getopt.CStrtol(s, 0)
	return n
}
