package main

import cgetopt "github.com/gopcp/gopcp/internal/getopt"

// strtol reads s as C's strtol(s, &end, 0) does (getopt.CStrtol): end is
// the offset after the digits read, 0 when there were none, so the
// caller can ask for the whole argument.
func strtol(s string) (n int64, end int) {
	n, end, _ = cgetopt.CStrtol(s, 0)
	return n, end
}
