// Package compat holds the cross-component checks that point PCP 6.0.3's
// own clients at gopcp: pmrep, pmie, pmevent, pminfo, pmprobe, pmstore,
// PCP's python tools and its python PMAPI against our pmcd with our
// agents, beside PCP's pmcd with PCP's agents, and PCP's archive tools
// (pmdumplog, pmlogcheck, pmlogsummary, pmlogextract, pmloglabel,
// pmlogsize, pmdiff, pmval, pmrep) on our pmlogger's archives beside
// PCP's pmlogger's. Each check runs one conversation against both sides
// in the same order and compares what the client printed, masking only
// what must differ (times, process ids, ports, values read from the
// clock or the kernel). It holds only tests.
package compat
