package mmv

import (
	"strconv"
	"sync/atomic"
	"syscall"

	"github.com/gopcp/gopcp/pcp"
)

// ErrPinned refuses an addition that would rewrite a file whose values a
// SingleCounter holds in place (EBUSY).
var ErrPinned = pcp.Error(-int32(syscall.EBUSY))

// SingleCounter is a counter for one writer: Inc and Add are a plain
// read-modify-write of the value in the mapped file, with no atomic
// instruction, as libpcp_mmv's mmv_inc_value is. It is the fastest update
// this package has, and it is correct only while a single goroutine
// updates the value, through this handle or any other (a Counter's Inc
// from another goroutine at the same moment can be lost, as two threads'
// mmv_inc_value can lose counts in C). Readers are safe: pmdammv and
// Counter.Load see whole values, since a plain store of an aligned
// 8-byte word is never torn on the platforms Go supports.
//
// The handle holds the value's address in the file, so the registry can
// no longer move its values: once the first SingleCounter is taken, adding
// a metric, an instance domain or an instance (which rewrites the file)
// fails with ErrPinned. After Close, updates land in memory of their own,
// as other handles' do.
type SingleCounter struct{ p *uint64 }

// SingleWriter returns c's single-writer handle. The registry must be
// started and not closed, and c one of its Uint64 or Elapsed values.
func (r *Registry) SingleWriter(c Counter) (SingleCounter, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	what := "registry " + strconv.Quote(r.name)
	switch {
	case r.closed:
		return SingleCounter{}, errorf(ErrClosed, what, "registry is closed")
	case !r.started:
		return SingleCounter{}, errorf(ErrInvalid, what, "a single-writer handle needs a started registry")
	case c.v == nil || !r.holds(c.v) || (c.v.typ != Uint64 && c.v.typ != Elapsed):
		return SingleCounter{}, errorf(ErrInvalid, what, "not a Uint64 or Elapsed value of this registry")
	}
	r.pinned = true
	return SingleCounter{p: &c.v.v.Load().atom}, nil
}

// holds reports whether v is one of r's values; r.mu is held.
func (r *Registry) holds(v *Value) bool {
	for _, m := range r.metrics {
		for _, c := range m.cells {
			if c == v {
				return true
			}
		}
	}
	return false
}

// Inc adds one.
func (s SingleCounter) Inc() { *s.p++ }

// Add adds n.
func (s SingleCounter) Add(n uint64) { *s.p += n }

// Load returns the count.
func (s SingleCounter) Load() uint64 { return atomic.LoadUint64(s.p) }
