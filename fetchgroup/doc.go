// Package fetchgroup fetches a fixed group of metrics again and again and
// hands back their values already converted, as libpcp's fetchgroups
// (pmCreateFetchGroup, pmExtendFetchGroup_*, pmFetchGroup) do.
//
// A Group owns a private PMAPI context of any kind (host, local, archive;
// Source gives it to the caller for settings such as an archive's time
// mode: the concrete context, beneath the derived-metrics layer). The
// context has derived metrics, as every libpcp context has: those of the
// process (derive.Global) unless the caller hands New a context already
// wrapped by pmapi/derived with a registry of its own. In the setup
// stage the caller extends the group with what it wants, each extension
// checked at once (names, instances, types, units) and returning a typed
// handle:
//
//   - ExtendItem: one metric, with an instance when it has an instance
//     domain;
//   - ExtendInDom: every instance of a metric, sorted by instance number,
//     with codes, names, values and per-instance errors;
//   - ExtendEvent: one field of every record of an event metric's value,
//     with each record's timestamp, in record order;
//   - ExtendTimestamp: the timestamp of the fetch.
//
// Then each Fetch issues one fetch of every metric the group names and
// fills every handle, whose Value, Err and the like are read afterwards:
//
//	g, err := fetchgroup.Create(ctx, pmapi.KindHost, "localhost")
//	...
//	defer g.Close()
//	load, err := fetchgroup.ExtendItem[float64](ctx, g, "kernel.all.load",
//		&fetchgroup.ItemOptions{Instance: "1 minute"})
//	...
//	disks, err := fetchgroup.ExtendInDom[float64](ctx, g, "disk.dev.read_bytes",
//		&fetchgroup.InDomOptions{Scale: "kbyte/sec"})
//	...
//	for range time.Tick(time.Second) {
//		g.Fetch(ctx)
//		fmt.Println(load.Value(), disks.Instances())
//	}
//
// Each Extend function takes its choices (an instance, a scale) as a
// pointer to a struct of its own, nil for none (ItemOptions says why).
// Unlike libpcp's, instance domains and event fields have no maximum
// count: every instance or field a fetch brings is delivered.
//
// For values wanted once, Values is the short path: one call fetches
// named metrics from any context and returns them converted to one type,
// with their instances' names.
//
// # Conversions
//
// The value type is the handle's type parameter (int32, uint32, int64,
// uint64, float32, float64 or string), whatever the metric's own type:
// numbers convert to one another (pcp.ErrTrunc, pcp.ErrSign where they do
// not fit), to strings (as %d, %u, or %.9e and %.17e for floats) and from
// strings (as pmstore parses them). The options' Scale is libpcp's scale
// argument:
//
//   - "" : no unit change, and a rate for counters (PM_SEM_COUNTER);
//   - "rate" (Rate): a rate whatever the semantics;
//   - "instant" (Instant): never a rate;
//   - a units expression for pmParseUnitsStr ("kbyte", "count/sec",
//     "2 millisec"): the value is rescaled to those units and multiplied by
//     the expression's number. Its dimensions must be the metric's, or its
//     time dimension one less than the metric's, which asks for a rate
//     per the expression's time unit. Anything else is pcp.ErrConv.
//
// A rate is the plain difference of the two last fetches over the time
// between them, negative when a counter wraps (unless PCP_COUNTER_WRAP is
// set in the environment when the group is made, as in libpcp); the first
// fetch has no previous value and gives pcp.ErrAgain. Event fields cannot
// be rates.
//
// # Unusual situations
//
// Before every fetch each output is reset to a sentinel: NaN for floating
// types, all bits set (-1, or the largest unsigned value) for integers and
// "" for strings, with the error pcp.ErrValue, so that a value that cannot
// be had never shows a stale number. A metric's own error (from the agent,
// or for the whole fetch) becomes its handle's error. Metrics with
// discrete semantics are the exception: when a fetch returns no value for
// one, its handle keeps the value and error it had, which suits archives
// holding metrics logged once.
//
// # Concurrency
//
// A Group and its handles are for one goroutine at a time; several groups
// may be used concurrently.
package fetchgroup
