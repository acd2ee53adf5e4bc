package pmda

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// Errors of the event queues, PCP's codes for the same conditions
// (negated errno values, as pmdaEventNewQueue and friends return them).
var (
	errQueueInvalid = pcp.Error(-int32(syscall.EINVAL))
	errQueueExists  = pcp.Error(-int32(syscall.EEXIST))
	errQueueMissing = pcp.Error(-int32(syscall.ESRCH))
)

// EventQueues holds an agent's named queues of raw events and the
// clients (pmcd contexts) reading them, the Go form of libpcp_pmda's
// pmdaEventNewQueue, pmdaEventQueueAppend, pmdaEventQueueRecords and
// pmdaEventNewClient family. An agent appends raw events (bytes and a
// time) as they happen; each client's fetch of an event metric decodes
// the events that client has not yet seen into an EventArray, through
// the client's filter or access check, and reports records it missed
// because the queue had to drop them to stay within its memory limit.
//
// The queues keep what pmdaEventNewQueue(3) promises: an event is held
// until every reader has been sent it or the memory limit pushes it out,
// and a reader that did not keep up is told how many events it missed.
// Each client keeps a sequence number into the queue, so it is given
// every event exactly once and the missed count is exact. libpcp_pmda
// 6.0.3 rereads each queue from its head on every fetch instead, which
// hands an event twice to one client and never to another when several
// read a queue, and never reports missed events; docs/pmda-extras.md
// lists these departures and the tests that show them. Everything else
// (error codes, counters, memory accounting, filters and access, when a
// joining client starts, when a queue is released) is libpcp_pmda's, as
// checked by running the same scripts through both.
//
// An EventQueues is safe for concurrent use; its zero value is ready.
type EventQueues struct {
	mu      sync.Mutex
	queues  []*EventQueue // by handle; nil once shut down and released
	clients map[Client]*eventClient
}

// EventQueue is one named queue; get one from EventQueues.NewQueue. Its
// methods are safe for concurrent use.
type EventQueue struct {
	q         *EventQueues
	handle    int
	name      string
	maxMemory int
	events    []queuedEvent // oldest first
	nextSeq   uint64        // sequence number of the next appended event
	numClient int           // clients reading (active) plus those announced
	announced int           // announced readers no client has stood for yet
	count     uint32        // events appended, kept or not
	bytes     uint64        // bytes appended, kept or not
	size      int           // bytes held in events
	shutdown  bool
	array     *EventArray
}

type queuedEvent struct {
	seq     uint64
	data    []byte
	time    time.Time
	pending int // readers yet to read it
}

// eventClient is one context's state for every queue it reads.
type eventClient struct {
	perQueue map[int]*clientQueue
}

// clientQueue is one context's position and rules on one queue.
type clientQueue struct {
	active  bool
	next    uint64 // sequence number of the first event not yet read
	missed  int
	access  bool
	filter  func(data []byte) bool // true: drop the event for this client
	release func()
}

// EventDecoder turns one raw event into records of a; it returns how
// many records it added. It is pmdaEventDecodeCallBack.
type EventDecoder func(a *EventArray, data []byte, t time.Time) (int, error)

// NewQueue makes a queue called name holding at most maxMemory bytes of
// events (pmdaEventNewQueue). Events appended while no client reads the
// queue are counted but not kept.
func (qs *EventQueues) NewQueue(name string, maxMemory int) (*EventQueue, error) {
	return qs.NewActiveQueue(name, maxMemory, 0)
}

// NewActiveQueue is NewQueue for a queue made while clients may already
// be attached (pmdaEventNewActiveQueue): it keeps events for nclients
// readers from the start, before any of them has fetched. The first
// nclients clients to read the queue stand for those announced readers
// and begin with the events kept for them.
func (qs *EventQueues) NewActiveQueue(name string, maxMemory, nclients int) (*EventQueue, error) {
	if maxMemory <= 0 || nclients < 0 {
		return nil, fmt.Errorf("pmda: event queue %q of %d bytes: %w", name, maxMemory, errQueueInvalid)
	}
	qs.mu.Lock()
	defer qs.mu.Unlock()
	slot := -1
	for i, q := range qs.queues {
		if q == nil {
			if slot < 0 {
				slot = i
			}
			continue
		}
		if q.name == name {
			return nil, fmt.Errorf("pmda: event queue %q: %w", name, errQueueExists)
		}
	}
	if slot < 0 {
		slot = len(qs.queues)
		qs.queues = append(qs.queues, nil)
	}
	q := &EventQueue{q: qs, handle: slot, name: name, maxMemory: maxMemory, numClient: nclients, announced: nclients, array: NewEventArray()}
	qs.queues[slot] = q
	return q, nil
}

// Queue finds a queue by name (pmdaEventQueueHandle).
func (qs *EventQueues) Queue(name string) (*EventQueue, error) {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	for _, q := range qs.queues {
		if q != nil && q.name == name {
			return q, nil
		}
	}
	return nil, fmt.Errorf("pmda: event queue %q: %w", name, errQueueMissing)
}

// Name is the queue's name.
func (q *EventQueue) Name() string { return q.name }

// Handle is the queue's number, as pmdaEventQueueHandle gives it.
func (q *EventQueue) Handle() int { return q.handle }

// live reports whether q is still registered; callers hold q.q.mu.
func (q *EventQueue) live() bool {
	return q.handle < len(q.q.queues) && q.q.queues[q.handle] == q
}

// Counter is the number of events appended (pmdaEventQueueCounter).
func (q *EventQueue) Counter() uint32 {
	q.q.mu.Lock()
	defer q.q.mu.Unlock()
	return q.count
}

// Bytes is the number of bytes appended (pmdaEventQueueBytes).
func (q *EventQueue) Bytes() uint64 {
	q.q.mu.Lock()
	defer q.q.mu.Unlock()
	return q.bytes
}

// Memory is the number of bytes the queue holds now (pmdaEventQueueMemory).
func (q *EventQueue) Memory() uint64 {
	q.q.mu.Lock()
	defer q.q.mu.Unlock()
	return uint64(q.size)
}

// Clients is the number of clients reading the queue, counting announced
// readers of an active queue no client stands for yet
// (pmdaEventQueueClients).
func (q *EventQueue) Clients() uint32 {
	q.q.mu.Lock()
	defer q.q.mu.Unlock()
	return uint32(q.numClient)
}

// Append adds an event that happened at t (pmdaEventQueueAppend). The
// data are copied. Oldest events are dropped to make room, counting as
// missed for the clients that had not read them; an event larger than
// the whole queue is counted but not kept, and one appended while no
// client reads the queue is counted and dropped, as PCP does.
func (q *EventQueue) Append(data []byte, t time.Time) error {
	qs := q.q
	qs.mu.Lock()
	defer qs.mu.Unlock()
	if !q.live() {
		return fmt.Errorf("pmda: event queue %q: %w", q.name, errQueueInvalid)
	}
	q.count++
	q.bytes += uint64(len(data))
	if len(data) > q.maxMemory {
		return nil
	}
	drop := 0
	for drop < len(q.events) && len(data) > q.maxMemory-q.size {
		q.size -= len(q.events[drop].data)
		drop++
	}
	if drop > 0 {
		dropped := q.events[:drop]
		first := dropped[drop-1].seq + 1 // oldest event still held
		for _, c := range qs.clients {
			cq := c.perQueue[q.handle]
			if cq == nil || !cq.active || cq.next >= first {
				continue
			}
			for _, e := range dropped {
				if e.seq >= cq.next {
					cq.missed++
				}
			}
			cq.next = first
		}
		q.events = append(q.events[:0], q.events[drop:]...)
		clear(q.events[len(q.events):cap(q.events)][:drop])
	}
	seq := q.nextSeq
	q.nextSeq++
	if q.numClient == 0 {
		return nil
	}
	q.events = append(q.events, queuedEvent{seq: seq, data: append([]byte(nil), data...), time: t, pending: q.numClient})
	q.size += len(data)
	return nil
}

// NewClient registers pmcd context ctx (pmdaEventNewClient); an agent
// calls it when a client attaches, e.g. from its attribute callback.
func (qs *EventQueues) NewClient(ctx Client) {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	if qs.clients == nil {
		qs.clients = map[Client]*eventClient{}
	}
	if qs.clients[ctx] == nil {
		qs.clients[ctx] = &eventClient{perQueue: map[int]*clientQueue{}}
	}
}

// EndContext is EndClient for an agent's ContextEnder: an agent that
// keeps its queues in an EventQueues forwards pmcd's end of a context.
func (qs *EventQueues) EndContext(c Client) { _ = qs.EndClient(c) }

// Clients is the number of registered clients (pmdaEventClients).
func (qs *EventQueues) Clients() int {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	return len(qs.clients)
}

// EndClient forgets context ctx (pmdaEventEndClient): its filters are
// released, the events only it had still to read are freed, and queues
// shut down while it read them are released if it was the last reader.
// A context that was never registered is no error, as in PCP: pmcd ends
// every context in every agent, read from or not.
func (qs *EventQueues) EndClient(ctx Client) error {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	c := qs.clients[ctx]
	if c == nil {
		return nil
	}
	delete(qs.clients, ctx)
	// in the order of the queues, as PCP releases the filters
	for _, h := range slices.Sorted(maps.Keys(c.perQueue)) {
		cq := c.perQueue[h]
		if cq.release != nil {
			cq.release()
		}
		if h >= len(qs.queues) || qs.queues[h] == nil || !cq.active {
			continue
		}
		q := qs.queues[h]
		q.consume(cq.next, q.nextSeq)
		q.numClient--
		if q.numClient <= 0 && q.shutdown {
			qs.queues[h] = nil
		}
	}
	return nil
}

// consume marks the events with sequence numbers in [from, to) as read by
// one more client and frees those every client has read.
func (q *EventQueue) consume(from, to uint64) {
	kept := q.events[:0]
	for _, e := range q.events {
		if e.seq >= from && e.seq < to {
			e.pending--
		}
		if e.pending > 0 {
			kept = append(kept, e)
		} else {
			q.size -= len(e.data)
		}
	}
	clear(q.events[len(kept):])
	q.events = kept
}

// clientQueue gives ctx's state on q, made on first use; callers hold
// qs.mu.
func (qs *EventQueues) clientQueue(ctx Client, q *EventQueue) (*clientQueue, error) {
	c := qs.clients[ctx]
	if c == nil || !q.live() {
		return nil, fmt.Errorf("pmda: event client %d on queue %q: %w", ctx, q.name, errQueueInvalid)
	}
	cq := c.perQueue[q.handle]
	if cq == nil {
		cq = &clientQueue{}
		c.perQueue[q.handle] = cq
	}
	return cq, nil
}

// SetAccess allows or denies context ctx the queue's events when it has
// no filter (pmdaEventSetAccess); a client has no access until given it.
func (q *EventQueue) SetAccess(ctx Client, allow bool) error {
	q.q.mu.Lock()
	defer q.q.mu.Unlock()
	cq, err := q.q.clientQueue(ctx, q)
	if err != nil {
		return err
	}
	cq.access = allow
	return nil
}

// SetFilter sets context ctx's filter on the queue (pmdaEventSetFilter):
// reject reports the events the client is not to be given. Setting a
// filter, even a nil one, gives the client access, as a store into an
// event metric's filter does in PCP; a filter overrides SetAccess.
// release, if not nil, is called when the filter is replaced or the
// client ends.
func (q *EventQueue) SetFilter(ctx Client, reject func(data []byte) bool, release func()) error {
	q.q.mu.Lock()
	defer q.q.mu.Unlock()
	cq, err := q.q.clientQueue(ctx, q)
	if err != nil {
		return err
	}
	if cq.release != nil {
		cq.release()
	}
	cq.filter, cq.release = reject, release
	cq.access = true
	return nil
}

// Records gives context ctx the events it has not yet read, decoded into
// an event array, then a record of missed events if the queue dropped
// some before ctx read them (pmdaEventQueueRecords). The first call makes
// ctx a reader of the queue; it begins with the events the queue still
// holds for other readers, as in PCP. A nil block means no records
// (PMDA_FETCH_NOVALUES): the array is returned when the decoder reported
// records (its counts, as PCP sums them) or events were missed. When the
// decoder fails, the events before the failing one count as read, the
// failing one is offered again on the next call, and the error is
// returned. The block is the caller's own: readers on several goroutines
// each get a copy.
func (q *EventQueue) Records(ctx Client, decode EventDecoder) (*pcp.ValueBlock, error) {
	qs := q.q
	qs.mu.Lock()
	defer qs.mu.Unlock()
	cq, err := qs.clientQueue(ctx, q)
	if err != nil {
		return nil, err
	}
	if !cq.active {
		q.join(cq)
	}
	a := q.array
	a.Reset()
	records := 0
	from := cq.next
	var derr error
	for _, e := range q.events {
		if e.seq < from {
			continue
		}
		if cq.filter != nil && cq.filter(e.data) || cq.filter == nil && !cq.access {
			cq.next = e.seq + 1
			continue
		}
		n, err := decode(a, e.data, e.time)
		if err != nil {
			derr = err
			break
		}
		records += n
		cq.next = e.seq + 1
	}
	if derr == nil {
		cq.next = q.nextSeq
	}
	q.consume(from, cq.next)
	if derr != nil {
		return nil, fmt.Errorf("pmda: decoding an event of queue %q: %w", q.name, derr)
	}
	if cq.missed > 0 {
		if err := a.AddMissedRecord(time.Now(), int32(min(cq.missed, math.MaxInt32))); err != nil {
			return nil, err
		}
		cq.missed = 0
		records++
	}
	if records == 0 {
		return nil, nil
	}
	// The queue's array is reused by the next reader as soon as the lock
	// is released, so each reader gets a copy of its own.
	v := a.Value()
	v.Data = slices.Clone(v.Data)
	return v, nil
}

// join makes cq a reader of q. A client standing for an announced reader
// takes over the events kept for it; any other is one more reader of the
// events still held, as libpcp_pmda starts a new reader at the head of
// the queue. Callers hold q.q.mu.
func (q *EventQueue) join(cq *clientQueue) {
	cq.active = true
	cq.next = q.nextSeq
	if len(q.events) > 0 {
		cq.next = q.events[0].seq
	}
	if q.announced > 0 {
		q.announced--
		return
	}
	q.numClient++
	for i := range q.events {
		q.events[i].pending++
	}
}

// Shutdown retires the queue (pmdaEventQueueShutdown): at once if no
// client reads it, else when the last reader ends.
func (q *EventQueue) Shutdown() error {
	qs := q.q
	qs.mu.Lock()
	defer qs.mu.Unlock()
	if !q.live() {
		return fmt.Errorf("pmda: event queue %q: %w", q.name, errQueueInvalid)
	}
	if q.numClient > 0 {
		q.shutdown = true
	} else {
		qs.queues[q.handle] = nil
	}
	return nil
}
