package trace

import (
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/trace"
)

// Domain is the trace agent's domain number, TRACE in PCP's domain.h.
const Domain = 10

// The metric items, cluster 0, as pmdatrace numbers them.
const (
	itemTransactCount = iota
	itemTransactRate
	itemTransactAve
	itemTransactMin
	itemTransactMax
	itemTransactTotal
	itemPointCount
	itemPointRate
	itemObserveCount
	itemObserveRate
	itemObserveValue
	itemPeriod
	itemInterval
	itemBuckets
	itemPort
	itemReset
	itemDebug
	itemCounterCount
	itemCounterRate
	itemCounterValue
)

// indomOf is the instance domain serial of a trace type: transactions 0,
// points 1, observations 2, counters 3.
func indomOf(t trace.Type) uint32 { return uint32(t) - 1 }

var (
	countUnits = pcp.Units{DimCount: 1, ScaleCount: pcp.CountOne}
	rateUnits  = pcp.Units{DimTime: -1, DimCount: 1, ScaleTime: pcp.TimeSec, ScaleCount: pcp.CountOne}
	perUnits   = pcp.Units{DimTime: 1, DimCount: -1, ScaleTime: pcp.TimeSec, ScaleCount: pcp.CountOne}
	secUnits   = pcp.Units{DimTime: 1, ScaleTime: pcp.TimeSec}
)

// metricDef is one row of the table: what the item serves and its help.
type metricDef struct {
	item    uint32
	name    string
	typ     pcp.Type
	of      trace.Type // 0: no instance domain
	sem     pcp.Sem
	units   pcp.Units
	oneLine string
	help    string
}

// metricDefs are the agent's metrics in pmdatrace's order, with help of
// our own.
var metricDefs = []metricDef{
	{itemTransactCount, "trace.transact.count", pcp.TypeU64, trace.TypeTransact, pcp.SemCounter, countUnits,
		"Transactions completed per tag",
		"How many transactions of each tag have ended (pmtraceend) since the\nagent started or was last reset. Aborted transactions are not counted."},
	{itemTransactRate, "trace.transact.rate", pcp.TypeFloat, trace.TypeTransact, pcp.SemInstant, rateUnits,
		"Transactions completed per second over the sampling period",
		"Transactions of each tag ended during the last sampling period\n(trace.control.period), divided by the period. Tags with no transaction in\nthe period have no value. The figure is recomputed once per interval\n(trace.control.interval), not at each fetch."},
	{itemTransactAve, "trace.transact.ave_time", pcp.TypeFloat, trace.TypeTransact, pcp.SemInstant, perUnits,
		"Mean transaction time over the sampling period",
		"The mean elapsed time of the transactions of each tag that ended during\nthe last sampling period."},
	{itemTransactMin, "trace.transact.min_time", pcp.TypeFloat, trace.TypeTransact, pcp.SemInstant, secUnits,
		"Shortest transaction time over the sampling period",
		"The shortest elapsed time among the transactions of each tag that ended\nduring the last sampling period."},
	{itemTransactMax, "trace.transact.max_time", pcp.TypeFloat, trace.TypeTransact, pcp.SemInstant, secUnits,
		"Longest transaction time over the sampling period",
		"The longest elapsed time among the transactions of each tag that ended\nduring the last sampling period."},
	{itemTransactTotal, "trace.transact.total_time", pcp.TypeDouble, trace.TypeTransact, pcp.SemCounter, secUnits,
		"Total time spent in transactions per tag",
		"The summed elapsed times of all transactions of each tag that have ended\nsince the agent started or was last reset."},
	{itemPointCount, "trace.point.count", pcp.TypeU64, trace.TypePoint, pcp.SemCounter, countUnits,
		"Times each trace point was passed",
		"How many times each point (pmtracepoint) was reported since the agent\nstarted or was last reset."},
	{itemPointRate, "trace.point.rate", pcp.TypeFloat, trace.TypePoint, pcp.SemInstant, rateUnits,
		"Trace points passed per second over the sampling period",
		"Points of each tag reported during the last sampling period, divided by\nthe period. Tags not seen in the period have no value."},
	{itemObserveCount, "trace.observe.count", pcp.TypeU64, trace.TypeObserve, pcp.SemCounter, countUnits,
		"Observations made per tag",
		"How many values of each tag were observed (pmtraceobs) since the agent\nstarted or was last reset."},
	{itemObserveRate, "trace.observe.rate", pcp.TypeFloat, trace.TypeObserve, pcp.SemInstant, rateUnits,
		"Observations per second over the sampling period",
		"Observations of each tag made during the last sampling period, divided\nby the period. Tags not seen in the period have no value."},
	{itemObserveValue, "trace.observe.value", pcp.TypeDouble, trace.TypeObserve, pcp.SemInstant, pcp.Units{},
		"Most recent observed value per tag",
		"The value of the latest observation of each tag. Its units are none\nunless the agent was started with -U."},
	{itemPeriod, "trace.control.period", pcp.TypeU32, 0, pcp.SemDiscrete, secUnits,
		"Length of the sampling period",
		"The span of time, in whole seconds, over which rates and transaction\ntimes are computed (the -T option)."},
	{itemInterval, "trace.control.interval", pcp.TypeU32, 0, pcp.SemDiscrete, secUnits,
		"Time between recomputations of the windowed figures",
		"The sampling period divided by the number of buckets, in whole seconds:\nhow often the oldest bucket of data is dropped and the rates and\ntransaction times are computed again."},
	{itemBuckets, "trace.control.buckets", pcp.TypeU32, 0, pcp.SemDiscrete, pcp.Units{},
		"Buckets of data kept over the sampling period",
		"How many intervals of data make up the sampling period (the -N option).\nA further bucket collects the current interval."},
	{itemPort, "trace.control.port", pcp.TypeU32, 0, pcp.SemDiscrete, pcp.Units{},
		"TCP port instrumented programs connect to",
		"The port on which the agent accepts connections from programs using the\ntrace library (the -I option, else PCP_TRACE_PORT, else 4323)."},
	{itemReset, "trace.control.reset", pcp.TypeU32, 0, pcp.SemDiscrete, pcp.Units{},
		"Store any value here to forget every tag",
		"Storing any value clears all tags, counts and buckets and starts a new\ninterval. A tag seen again afterwards keeps its former instance number.\nFetching it always gives 1."},
	{itemDebug, "trace.control.debug", pcp.Type32, 0, pcp.SemDiscrete, pcp.Units{},
		"The agent's diagnostic flags",
		"The agent's diagnostic flags as a number, 0 unless a number was stored\nhere; PCP 6.0.3's pmdatrace keeps its old debug bit mask here. This agent\nkeeps the number but does not act on it."},
	{itemCounterCount, "trace.counter.count", pcp.TypeU64, trace.TypeCounter, pcp.SemCounter, countUnits,
		"Counter values received per tag",
		"How many values of each counter tag (pmtracecounter) were received since\nthe agent started or was last reset."},
	{itemCounterRate, "trace.counter.rate", pcp.TypeFloat, trace.TypeCounter, pcp.SemInstant, rateUnits,
		"Counter values received per second over the sampling period",
		"Values of each counter tag received during the last sampling period,\ndivided by the period. Tags not seen in the period have no value."},
	{itemCounterValue, "trace.counter.value", pcp.TypeDouble, trace.TypeCounter, pcp.SemCounter, pcp.Units{},
		"Most recent value of each counter",
		"The latest value sent for each counter tag, which the program keeps\nmonotonic. Its units are none unless the agent was started with -V."},
}

// table builds the pmda metric and instance domain tables, with the
// value units chosen for observations and counters.
func table(obsUnits, ctrUnits pcp.Units) ([]pmda.Metric, []pmda.InDom) {
	ms := make([]pmda.Metric, 0, len(metricDefs))
	for _, d := range metricDefs {
		indom := pcp.InDomNull
		if d.of != 0 {
			indom = pcp.NewInDom(Domain, indomOf(d.of))
		}
		u := d.units
		switch d.item {
		case itemObserveValue:
			u = obsUnits
		case itemCounterValue:
			u = ctrUnits
		}
		ms = append(ms, pmda.Metric{
			Name:    d.name,
			Desc:    pcp.Desc{PMID: pcp.NewPMID(Domain, 0, d.item), Type: d.typ, InDom: indom, Sem: d.sem, Units: u},
			OneLine: d.oneLine,
			Help:    d.help,
		})
	}
	names := [4]string{"transactions", "trace points", "observations", "counters"}
	var ds []pmda.InDom
	for i, n := range names {
		ds = append(ds, pmda.InDom{
			InDom:   pcp.NewInDom(Domain, uint32(i)),
			OneLine: "Tags of " + n + " seen by the trace agent",
			Help:    "One instance per tag of " + n + ", named by the tag and numbered from 1\nin order of arrival; numbers survive a reset of the agent.",
		})
	}
	return ms, ds
}
