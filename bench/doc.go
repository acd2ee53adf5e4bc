// Package bench times gopcp next to libpcp on the same inputs in one run:
// each case runs a small C program compiled against PCP's libpcp with -O2
// and the matching gopcp code under testing.Benchmark, and reports both
// figures and their ratio. It holds only tests; docs/bench.md describes the
// cases and the latest figures.
//
//	GOPCP_BENCH=1 go test -run TestSideBySide -v ./bench/
//
// TestAgree, which always runs when PCP is installed, checks first that
// both sides compute the same answers from those inputs.
package bench
