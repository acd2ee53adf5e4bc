package webapi

import (
	"crypto/rand"
	"encoding/binary"
	"sync"
	"time"
)

// registry holds the live web contexts by identifier, with counts per
// client address for the limits.
type registry struct {
	mu       sync.Mutex
	byID     map[uint32]*webContext
	byClient map[string]int
}

func newRegistry() *registry {
	return &registry{byID: make(map[uint32]*webContext), byClient: make(map[string]int)}
}

// limitError is a refused new context: status 503 for the total, 429 for
// one client's.
type limitError struct {
	status int
	msg    string
}

func (e *limitError) Error() string { return e.msg }

// reserve checks the limits and takes an identifier (random, positive, as
// pmproxy's random() ids, never one in use) for a context about to be made.
func (r *registry) reserve(client string, opts *Options) (uint32, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.byID) >= opts.MaxContexts {
		return 0, &limitError{503, "too many web contexts"}
	}
	if r.byClient[client] >= opts.MaxClientContexts {
		return 0, &limitError{429, "too many web contexts from this client"}
	}
	for {
		var b [4]byte
		_, _ = rand.Read(b[:])
		id := binary.LittleEndian.Uint32(b[:]) & 0x7fffffff
		if _, taken := r.byID[id]; !taken {
			r.byID[id] = nil // reserved until add or release
			r.byClient[client]++
			return id, nil
		}
	}
}

func (r *registry) add(c *webContext) {
	r.mu.Lock()
	r.byID[c.id] = c
	r.mu.Unlock()
}

func (r *registry) release(id uint32, client string) {
	r.mu.Lock()
	r.drop(id, client)
	r.mu.Unlock()
}

func (r *registry) drop(id uint32, client string) {
	delete(r.byID, id)
	if r.byClient[client]--; r.byClient[client] <= 0 {
		delete(r.byClient, client)
	}
}

// lookup returns the context, or nil when the identifier is unknown.
func (r *registry) lookup(id uint32) *webContext {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byID[id]
}

// sweep forgets the contexts that have expired and are not in use, and
// returns those still open for closing outside the lock, with the number
// of contexts it looked at and the number it forgot.
func (r *registry) sweep(now time.Time) (gone []*webContext, scanned, dropped int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	scanned = len(r.byID)
	for id, c := range r.byID {
		if c == nil || !c.expired(now) || c.busy.Load() > 0 {
			continue
		}
		r.drop(id, c.client)
		dropped++
		if !c.closed {
			c.closed = true
			gone = append(gone, c)
		}
	}
	return gone, scanned, dropped
}

// expiredOpen returns the contexts that have expired, are not in use and
// still hold their PMAPI context, marking them closed: the caller closes
// them. They stay known ("expired") until the next sweep forgets them.
func (r *registry) expiredOpen(now time.Time) []*webContext {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*webContext
	for _, c := range r.byID {
		if c == nil || c.closed || !c.expired(now) {
			continue
		}
		c.closed = true
		out = append(out, c)
	}
	return out
}

// all removes and returns every context, for Close.
func (r *registry) all() []*webContext {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*webContext
	for id, c := range r.byID {
		if c != nil {
			r.drop(id, c.client)
			if !c.closed {
				c.closed = true
				out = append(out, c)
			}
		}
	}
	return out
}

func (r *registry) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.byID)
}
