package linux

import (
	"cmp"
	"slices"
	"sync/atomic"

	"github.com/gopcp/gopcp/pmda"
)

// Instance domain serials, as PCP's pmdalinux numbers them.
const (
	cpuInDom        = 0
	diskInDom       = 1
	loadavgInDom    = 2
	netDevInDom     = 3
	interruptInDom  = 4
	filesysInDom    = 5
	swapdevInDom    = 6
	partitionsInDom = 10
	slabInDom       = 12
	netAddrInDom    = 17
	nodeInDom       = 19
	dmInDom         = 24
	mdInDom         = 25
	buddyInDom      = 31
	zoneInDom       = 32
	zoneProtInDom   = 33
	scsiInDom       = 11
	zramInDom       = 38
	softirqInDom    = 36
	pressureInDom   = 37
	intrCPUInDom    = 40
	softirqCPUInDom = 41
	numInDoms       = 43
)

// indomTable is one instance domain whose members come and go. A refresh
// lists the current members between begin and end; end publishes a new
// slice only when the membership changed, so steady refreshes allocate
// nothing. Numbers stay with names: a name seen before gets its old number.
type indomTable struct {
	ids     map[string]idName
	next    int32
	scratch []pmda.Instance
	pub     atomic.Pointer[[]pmda.Instance]
	// labels, when set, gives each instance its labels as the listing is
	// published (only when it changes).
	labels func(pmda.Instance) []pmda.Label
	// cache, when set, numbers new instances and keeps PCP's cache file.
	cache *instanceCache
	// seed, until the table is first used, reads the numbers PCP's
	// agent saved for the domain's instances (seedInstanceNumbers).
	seed func(*indomTable)
}

// use reads the domain's saved instance numbers the first time the
// table is used.
func (t *indomTable) use() {
	if s := t.seed; s != nil {
		t.seed = nil
		s(t)
	}
}

type idName struct {
	id   int32
	name string
}

// begin starts a listing.
func (t *indomTable) begin() {
	t.use()
	t.scratch = t.scratch[:0]
}

// add lists the instance called name, numbering it if it is new.
func (t *indomTable) add(name []byte) int32 {
	t.use()
	if t.ids == nil {
		t.ids = make(map[string]idName)
	}
	e, ok := t.ids[string(name)]
	if !ok {
		e = idName{t.next, string(name)}
		if t.cache != nil {
			if id, ok := t.cache.number(e.name); ok {
				e.id = id
			}
		}
		t.next = max(t.next, e.id) + 1
		t.ids[e.name] = e
	}
	t.scratch = append(t.scratch, pmda.Instance{ID: e.id, Name: e.name})
	return e.id
}

// addID lists an instance whose number is fixed (a CPU's number).
func (t *indomTable) addID(name []byte, id int32) {
	t.use()
	if t.ids == nil {
		t.ids = make(map[string]idName)
	}
	e, ok := t.ids[string(name)]
	if !ok || e.id != id {
		e = idName{id, string(name)}
		t.ids[e.name] = e
	}
	t.scratch = append(t.scratch, pmda.Instance{ID: e.id, Name: e.name})
}

// end publishes the listing if it differs from the published one. The
// listing is in instance number order, the order in which PCP's agent
// walks its instance caches, so values come in the same order.
func (t *indomTable) end() {
	if t.cache != nil {
		t.cache.save()
	}
	slices.SortFunc(t.scratch, func(a, b pmda.Instance) int { return cmp.Compare(a.ID, b.ID) })
	if p := t.pub.Load(); p != nil && sameInstances(*p, t.scratch) {
		return
	}
	out := make([]pmda.Instance, len(t.scratch))
	copy(out, t.scratch)
	if t.labels != nil {
		for i := range out {
			out[i].Labels = t.labels(out[i])
		}
	}
	t.pub.Store(&out)
}

// set publishes a fixed listing.
func (t *indomTable) set(ins []pmda.Instance) { t.pub.Store(&ins) }

// list is the published listing.
func (t *indomTable) list() []pmda.Instance {
	if p := t.pub.Load(); p != nil {
		return *p
	}
	return nil
}

func sameInstances(a, b []pmda.Instance) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}
