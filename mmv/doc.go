// Package mmv instruments Go programs with Memory Mapped Values: it writes
// the files PCP's MMV agent (pmdammv) reads from $PCP_TMP_DIR/mmv, in the
// format libpcp_mmv writes, so that a Go program's metrics reach every PCP
// tool as mmv.<file>.<metric> without any call into PCP at update time.
//
// A Registry describes one file: instance domains (AddInDom), metrics of
// any MMV type (AddMetric) or typed ones (Counter, Gauge, Text, Timer,
// Histogram and their Vec forms over an instance domain), and labels on
// the registry, instance domains, instances and metrics. Start writes the
// file; Close ends it (and removes it with the Process flag).
//
//	dir, _ := mmv.DefaultDir() // $PCP_TMP_DIR/mmv, at the program's edge
//	reg, _ := mmv.New("myapp", mmv.Options{Dir: dir, Flags: mmv.Process})
//	requests, _ := reg.Counter("requests", mmv.MetricOptions{ShortHelp: "requests served"})
//	rt, _ := goruntime.Export(reg, "go") // the Go runtime's own metrics (package mmv/goruntime)
//	reg.Start()
//	go rt.Run(ctx, time.Second)
//	requests.Inc() // one atomic add on the mapped file
//
// What a reader sees is what it sees of libpcp_mmv's files: the version is
// chosen as libpcp_mmv chooses it (1; 2 when a metric or instance name
// has 64 bytes or more; 3 when any label is present), and sections,
// string table and labels are laid out in libpcp_mmv's order, so PCP's
// mmvdump prints the same for both and pmdammv serves them alike (both
// checked in this package's tests against the installed PCP).
//
// Numbers pmdammv needs unique are checked here rather than dropped there:
// items (1 to 1023) and instance domain serials (1 to 2047) given twice
// are refused with EEXIST, and when not given are derived (items from a
// hash of the name, stepping past ones taken; serials the lowest free);
// the cluster, when not given, is derived from the file's name, stepping
// past clusters other files in the directory claim, and a given one that
// another file claims is refused. Every name, help text and label is
// checked against PCP's rules, with libpcp_mmv's error codes (EINVAL,
// E2BIG, ESRCH) as pcp.Error values under *Error.
//
// A value update is one atomic operation on the mapped file: no lock, no
// allocation, safe from any number of goroutines. Metrics and instances
// may be added after Start: the file is then rebuilt under a hidden name,
// completed (its second generation number written last) and renamed over
// the old one, whose generation is then zeroed so that readers holding it
// reload. Handles keep working across rewrites; their values move with
// them. A SingleCounter (Registry.SingleWriter) is the one exception to
// atomic updates: a plain add for a value only one goroutine updates, as
// fast as memory allows, after which the registry takes no additions.
package mmv
