package pmda

import (
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// QueueStat names a statistic of an event queue that an agent exports as
// a metric beside the queue's records, as pmdalogger exports each log's
// count, bytes, numclients and queuemem.
type QueueStat int

// The statistics of pmdaEventQueueCounter, Bytes, Clients and Memory.
const (
	QueueCounter QueueStat = iota // events appended, kept or not
	QueueBytes                    // bytes of events appended, kept or not
	QueueClients                  // clients reading the queue
	QueueMemory                   // bytes of events the queue holds now
)

// Desc is the metric descriptor a statistic is exported with (PMID and
// instance domain to be filled in): the type of the value Stat gives,
// counters for the running totals, instantaneous for the others.
func (s QueueStat) Desc() pcp.Desc {
	count := pcp.Units{DimCount: 1, ScaleCount: 0}
	bytes := pcp.Units{DimSpace: 1, ScaleSpace: pcp.SpaceByte}
	switch s {
	case QueueCounter:
		return pcp.Desc{Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemCounter, Units: count}
	case QueueBytes:
		return pcp.Desc{Type: pcp.TypeU64, InDom: pcp.InDomNull, Sem: pcp.SemCounter, Units: bytes}
	case QueueClients:
		return pcp.Desc{Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemInstant, Units: count}
	default:
		return pcp.Desc{Type: pcp.TypeU64, InDom: pcp.InDomNull, Sem: pcp.SemInstant, Units: bytes}
	}
}

// Stat gives a statistic of the queue as a Fetcher returns it: a U32 in
// UL for QueueCounter and QueueClients, a U64 in ULL for QueueBytes and
// QueueMemory. A queue that has been released (shut down with no reader
// left) gives an error wrapping PCP's -EINVAL, as pmdaEventQueueCounter
// and the others do.
func (q *EventQueue) Stat(s QueueStat) (pcp.Atom, error) {
	q.q.mu.Lock()
	defer q.q.mu.Unlock()
	if !q.live() {
		return pcp.Atom{}, fmt.Errorf("pmda: event queue %q: %w", q.name, errQueueInvalid)
	}
	switch s {
	case QueueCounter:
		return pcp.Atom{UL: q.count}, nil
	case QueueBytes:
		return pcp.Atom{ULL: q.bytes}, nil
	case QueueClients:
		return pcp.Atom{UL: uint32(q.numClient)}, nil
	case QueueMemory:
		return pcp.Atom{ULL: uint64(q.size)}, nil
	}
	return pcp.Atom{}, fmt.Errorf("pmda: event queue statistic %d: %w", s, errQueueInvalid)
}

// ClientsAtom is the number of registered clients as a Fetcher returns
// it, a U32 (pmdaEventClients, pmdalogger's logger.numclients).
func (qs *EventQueues) ClientsAtom() pcp.Atom { return pcp.Atom{UL: uint32(qs.Clients())} }

// FetchRecords is Records as a Fetcher returns it, for an event metric
// (pcp.TypeEvent) backed by the queue: the array in VBP, or ErrNoValue
// when client c has no records, so the metric has no value this fetch, as
// PMDA_FETCH_NOVALUES leaves it.
func (q *EventQueue) FetchRecords(c Client, decode EventDecoder) (pcp.Atom, error) {
	vb, err := q.Records(c, decode)
	if err != nil {
		return pcp.Atom{}, err
	}
	if vb == nil {
		return pcp.Atom{}, ErrNoValue
	}
	return pcp.Atom{VBP: vb}, nil
}

// isLive reports whether the queue is still registered.
func (q *EventQueue) isLive() bool {
	q.q.mu.Lock()
	defer q.q.mu.Unlock()
	return q.live()
}
