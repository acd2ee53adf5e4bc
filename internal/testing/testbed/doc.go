// Package testbed runs PCP's own daemons (pmcd, its agents and pmlogger)
// on private ports with private configuration, so that interop tests can
// compare gopcp against the real thing without touching the system pmcd.
//
// A test calls StartPMCD, which skips when PCP is not installed (or fails
// when GOPCP_REQUIRE_PCP=1), and uses the returned PMCD's Host, Port and Run
// to drive PCP's client tools against it. Everything a test bed creates
// lives in one temporary directory and is removed by the test's cleanup;
// several test beds may run at once in one or many processes.
package testbed
