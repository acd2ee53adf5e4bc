package pmda

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// CacheState is the state of an instance in a Cache.
type CacheState int

// The states of a cache entry, as libpcp_pmda's cache has them.
const (
	// CacheActive instances are in the instance domain now: fetches and
	// instance requests see them.
	CacheActive CacheState = iota + 1
	// CacheInactive instances are remembered, keeping their number for
	// when they come back, but not in the instance domain now.
	CacheInactive
	// CacheEmpty entries are culled: forgotten, and not saved.
	CacheEmpty
)

func (s CacheState) String() string {
	switch s {
	case CacheActive:
		return "active"
	case CacheInactive:
		return "inactive"
	case CacheEmpty:
		return "empty"
	}
	return fmt.Sprintf("CacheState(%d)", int(s))
}

// errInval is EINVAL as PCP returns it from the cache calls.
var errInval = pcp.Error(-22)

// maxHashTry is how often AddKey rehashes a key looking for a free number.
const maxHashTry = 10

// dirty bits: what a save must write.
const (
	dirtyInstance = 1 << iota // entries added or culled
	dirtyStamp                // an entry became active again
)

// cacheEntry is one instance of a Cache.
type cacheEntry struct {
	inst    int32
	name    string
	short   string // name up to its first space (the whole name in a string cache)
	key     []byte
	state   CacheState
	private any
	stamp   int64 // when last saved active; 0 until the next save
}

// Cache is an instance domain whose instances come and go, with numbers
// that stay the same for the same names across restarts of the agent: the
// instance cache of libpcp_pmda (pmdaCacheStore, pmdaCacheLookup and
// pmdaCacheOp). An agent whose instance domain is a cache answers instance
// requests and fetches from Active, the entries present now.
//
// Names are matched as PCP matches instance names: up to the first space,
// so "eth0 primary" and "eth0" are the same instance, while storing
// "eth0 backup" beside "eth0 primary" is an error (pcp.Error(-EINVAL)).
// A string cache (Strings) matches whole names instead.
//
// Save writes the cache to PCP's file, $PCP_VAR_DIR/config/pmda/DOMAIN.SERIAL,
// in libpcp_pmda's format, and Load reads it back, so a cache saved by a
// PCP agent loads here and the other way round.
//
// A Cache is safe for concurrent use.
type Cache struct {
	mu      sync.Mutex
	indom   pcp.InDom
	dir     string
	entries []*cacheEntry // by instance number; culled entries stay until Reorg
	byInst  map[int32]*cacheEntry
	byName  map[string]*cacheEntry // by short name
	reuse   bool                   // number new instances from the lowest free one
	strings bool
	maxInst int32
	nentry  int // entries ever inserted, as PCP's size counts them
	dirty   int
	now     func() time.Time
}

// NewCache returns an empty cache for indom, which should carry the
// agent's domain: its file is named after it.
func NewCache(indom pcp.InDom) *Cache {
	return &Cache{
		indom:   indom,
		byInst:  make(map[int32]*cacheEntry),
		byName:  make(map[string]*cacheEntry),
		maxInst: 0x7fffffff,
		now:     time.Now,
	}
}

// InDom is the cache's instance domain.
func (c *Cache) InDom() pcp.InDom { return c.indom }

// shortName is what names are matched by.
func (c *Cache) shortName(name string) string {
	if c.strings {
		return name
	}
	for i := 0; i < len(name); i++ {
		if name[i] == ' ' {
			return name[:i]
		}
	}
	return name
}

// findName finds the entry whose name matches name; bad reports a short
// name match whose remainder differs (PCP's name_eq returning -1).
func (c *Cache) findName(name string) (e *cacheEntry, bad bool) {
	e = c.byName[c.shortName(name)]
	if e == nil {
		return nil, false
	}
	short := len(e.short)
	if len(name) == short || e.name == name {
		return e, false
	}
	return e, true
}

// insert adds an inactive entry; inst is pcp.InstNull to have a number
// chosen. An existing entry with the same number or name is returned with
// pcp.ErrInst when the other half differs.
func (c *Cache) insert(name string, inst int32) (*cacheEntry, error) {
	if !c.strings && name == "" {
		return nil, fmt.Errorf("pmda: cache %v: empty instance name: %w", c.indom, pcp.ErrGeneric)
	}
	if inst != pcp.InstNull {
		if e := c.byInst[inst]; e != nil {
			if e2, bad := c.findName(name); e2 != e || bad {
				return e, pcp.ErrInst
			}
			return e, nil
		}
		if e, _ := c.findName(name); e != nil {
			return e, pcp.ErrInst
		}
	} else {
		var err error
		if inst, err = c.nextInst(); err != nil {
			return nil, err
		}
	}
	e := &cacheEntry{inst: inst, name: name, short: c.shortName(name), state: CacheInactive}
	// After any entries of the same number (culled ones), as PCP links it.
	i, _ := slices.BinarySearchFunc(c.entries, inst, func(e *cacheEntry, x int32) int {
		if e.inst <= x {
			return -1
		}
		return 1
	})
	c.entries = slices.Insert(c.entries, i, e)
	c.byInst[inst] = e
	c.byName[e.short] = e
	c.nentry++
	return e, nil
}

// nextInst chooses the number of a new instance: one past the highest so
// far, or in reuse mode (or once the numbers have run out) the lowest that
// no entry, culled or not, has.
func (c *Cache) nextInst() (int32, error) {
	if !c.reuse {
		if len(c.entries) == 0 {
			return 0, nil
		}
		last := c.entries[len(c.entries)-1].inst
		if last != c.maxInst {
			return last + 1, nil
		}
		c.reuse = true
	}
	var inst int32
	for _, e := range c.entries {
		if inst < e.inst {
			break
		}
		if inst == c.maxInst {
			return 0, fmt.Errorf("pmda: cache %v: too many instances: %w", c.indom, pcp.ErrGeneric)
		}
		inst++
	}
	return inst, nil
}

// cull takes an entry out of the lookups, leaving it in the list until
// Reorg.
func (c *Cache) cull(e *cacheEntry) {
	e.state = CacheEmpty
	if c.byInst[e.inst] == e {
		delete(c.byInst, e.inst)
	}
	if c.byName[e.short] == e {
		delete(c.byName, e.short)
	}
	e.private = nil
	c.dirty |= dirtyInstance
}

// Add makes name an active instance, adding it with a new number if the
// cache does not have it, and returns its number (pmdaCacheStore with
// PMDA_CACHE_ADD). private is kept with the entry for the agent; an Add of
// an existing entry replaces it and forgets any key.
func (c *Cache) Add(name string, private any) (int32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.add(name, pcp.InstNull, nil, private)
}

func (c *Cache) add(name string, inst int32, key []byte, private any) (int32, error) {
	e, bad := c.findName(name)
	if bad {
		return 0, errInval
	}
	if e == nil {
		var err error
		if e, err = c.insert(name, inst); err != nil {
			return 0, err
		}
		c.dirty |= dirtyInstance
	}
	e.key = slices.Clone(key)
	e.state = CacheActive
	e.private = private
	e.stamp = 0
	c.dirty |= dirtyStamp
	return e.inst, nil
}

// Hide makes the instance called name inactive, keeping its number
// (PMDA_CACHE_HIDE); a name not in the cache is pcp.ErrInst.
func (c *Cache) Hide(name string) (int32, error) {
	return c.change(name, CacheInactive)
}

// Cull forgets the instance called name (PMDA_CACHE_CULL); its number
// may be given again once the cache is reorganised.
func (c *Cache) Cull(name string) (int32, error) {
	return c.change(name, CacheEmpty)
}

func (c *Cache) change(name string, to CacheState) (int32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, bad := c.findName(name)
	if e == nil {
		return 0, pcp.ErrInst
	}
	if bad {
		return 0, errInval
	}
	if to == CacheEmpty {
		c.cull(e)
	} else {
		e.state = to
	}
	return e.inst, nil
}

// AddKey is Add for an instance whose number is derived from a key (or,
// with an empty key, from its name), so that the same key gets the same
// number on any host and after any restart (pmdaCacheStoreKey): the number
// is libpcp_pmda's hash of the key, rehashed while it collides. A name
// already cached under a different key, or a key under a different name,
// is pcp.ErrInst. Once AddKey has chosen a number the cache numbers new
// instances from the lowest free one, as PCP's does.
func (c *Cache) AddKey(name string, key []byte, private any) (int32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(key) == 0 {
		key = []byte(name)
	}
	var inst int32
	if e, _ := c.findName(name); e != nil {
		if !slices.Equal(e.key, key) {
			return 0, pcp.ErrInst
		}
		inst = e.inst
	} else {
		var try uint32
		i := 0
		for ; i < maxHashTry; i++ {
			try = hashBytes(key, try)
			inst = int32(try &^ (1 << 31))
			e := c.byInst[inst]
			if e == nil {
				break
			}
			if e.name == name {
				if slices.Equal(e.key, key) {
					break
				}
				return 0, pcp.ErrInst
			}
			if slices.Equal(e.key, key) {
				return 0, pcp.ErrInst
			}
		}
		if i == maxHashTry {
			return 0, fmt.Errorf("pmda: cache %v: no free instance number for %q: %w", c.indom, name, pcp.ErrGeneric)
		}
		c.reuse = true
	}
	return c.add(name, inst, key, private)
}

// Lookup returns the name, state and private value of instance inst;
// culled or unknown numbers are pcp.ErrInst.
func (c *Cache) Lookup(inst int32) (name string, state CacheState, private any, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.byInst[inst]
	if e == nil {
		return "", 0, nil, pcp.ErrInst
	}
	return e.name, e.state, e.private, nil
}

// LookupName returns the number, state and private value of the
// instance matching name (up to its first space); pcp.ErrInst if none.
func (c *Cache) LookupName(name string) (inst int32, state CacheState, private any, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, _ := c.findName(name)
	if e == nil {
		return 0, 0, nil, pcp.ErrInst
	}
	return e.inst, e.state, e.private, nil
}

// LookupKey finds the instance added with key (or, with an empty key,
// whose key is name) and returns its name, number, state and private
// value; pcp.ErrInst if none.
func (c *Cache) LookupKey(name string, key []byte) (string, int32, CacheState, any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(key) == 0 {
		key = []byte(name)
	}
	for _, e := range c.entries {
		if e.state != CacheEmpty && slices.Equal(e.key, key) {
			return e.name, e.inst, e.state, e.private, nil
		}
	}
	return "", 0, 0, nil, pcp.ErrInst
}

// setAll moves every entry in state from to state to and counts them.
func (c *Cache) setAll(from, to CacheState) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, e := range c.entries {
		if e.state == from || (from == 0 && e.state != CacheEmpty) {
			if to == CacheEmpty {
				c.cull(e)
			} else {
				e.state = to
			}
			n++
		}
	}
	return n
}

// ActivateAll makes every inactive entry active and returns how many
// changed (PMDA_CACHE_ACTIVE).
func (c *Cache) ActivateAll() int { return c.setAll(CacheInactive, CacheActive) }

// DeactivateAll makes every active entry inactive, as an agent does
// before it re-adds what it finds now (PMDA_CACHE_INACTIVE).
func (c *Cache) DeactivateAll() int { return c.setAll(CacheActive, CacheInactive) }

// CullAll forgets every entry (PMDA_CACHE_CULL).
func (c *Cache) CullAll() int { return c.setAll(0, CacheEmpty) }

// Size is the number of entries inserted since the cache was made, culled
// ones included, as PMDA_CACHE_SIZE counts them.
func (c *Cache) Size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nentry
}

// count counts the entries in state s.
func (c *Cache) count(s CacheState) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, e := range c.entries {
		if e.state == s {
			n++
		}
	}
	return n
}

// SizeActive is the number of active entries.
func (c *Cache) SizeActive() int { return c.count(CacheActive) }

// SizeInactive is the number of inactive entries.
func (c *Cache) SizeInactive() int { return c.count(CacheInactive) }

// Reuse has new instances numbered from the lowest free number instead
// of one past the highest (PMDA_CACHE_REUSE).
func (c *Cache) Reuse() {
	c.mu.Lock()
	c.reuse = true
	c.mu.Unlock()
}

// Strings makes this a cache of strings rather than instance names:
// names are matched whole, spaces included, and may be empty. It must be
// called before anything is added; afterwards it is pcp.Error(-E2BIG).
func (c *Cache) Strings() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.nentry > 0 {
		return pcp.Error(-7)
	}
	c.strings = true
	return nil
}

// Reorg drops culled entries for good, freeing their numbers
// (PMDA_CACHE_REORG).
func (c *Cache) Reorg() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = slices.DeleteFunc(c.entries, func(e *cacheEntry) bool { return e.state == CacheEmpty })
}

// Active returns the active instances in number order, as a walk of the
// cache (PMDA_CACHE_WALK_NEXT) visits them.
func (c *Cache) Active() []Instance {
	c.mu.Lock()
	n := len(c.entries)
	c.mu.Unlock()
	return c.AppendActive(make([]Instance, 0, n))
}

// AppendActive appends what Active returns to dst and returns it: an
// agent that keeps dst between fetches lists the members without
// allocating once it is large enough.
func (c *Cache) AppendActive(dst []Instance) []Instance {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		if e.state == CacheActive {
			dst = append(dst, Instance{ID: e.inst, Name: e.name})
		}
	}
	return dst
}

// Purge culls the entries not active within the last recent (their
// stamp, set when a save finds them active, is older), calling release
// with the private value of each that has one, and returns how many went.
// Entries active since the last save are kept.
func (c *Cache) Purge(recent time.Duration, release func(private any)) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	epoch := c.now().Add(-recent).Unix()
	n := 0
	for _, e := range c.entries {
		if e.stamp != 0 && e.stamp < epoch {
			if release != nil && e.private != nil {
				release(e.private)
			}
			c.cull(e)
			n++
		}
	}
	return n
}
