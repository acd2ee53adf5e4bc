package proc

import "testing"

// FixtureTree lets the comparison tests (package proc_test) run PCP's
// agent and ours on the same fixture tree.
func FixtureTree(t testing.TB, n int) string { return fixtureTree(t, n) }
