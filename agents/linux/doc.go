// Package linux is PCP's Linux kernel agent (pmdalinux, domain 60) in Go:
// the kernel's counters and gauges from /proc and /sys under the names,
// PMIDs, descriptors, instance domains and instance names PCP 6.0.3's
// pmdalinux gives them, so that PCP's tools, pmlogger configurations and
// archives made against PCP's agent work unchanged.
//
// The agent reads each file at most once per fetch, and only the files the
// fetched metrics need: every metric names its source (a Refresher bit),
// Refresh reads the sources the request needs into buffers kept from one
// fetch to the next, parses them in place without splitting into strings,
// and the per-value Fetch calls then only index parsed numbers. Instance
// domains (CPUs, disks, interfaces, filesystems, ...) are rebuilt by the
// refresh that reads their file and published as a new slice only when
// their membership changes; instance numbers stay with their names for
// the life of the agent.
//
// The /proc and /sys trees are configurable (Options.ProcRoot and SysRoot,
// or $LINUX_STATSPATH as PCP's agent takes it), so tests run on fixture
// trees.
//
// The Agent New returns is safe for concurrent use as package pmda
// describes: fetches run one at a time, and instance lists are published
// atomically for concurrent instance requests.
package linux
