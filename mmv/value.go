package mmv

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// diskValue is a value record as it lies in the file: the value itself
// (PCP's pmAtomValue: 32-bit types in the low half), the extra word
// (a string's slot offset, or minus the start of a timed section in
// microseconds), and the offsets of its metric and instance.
type diskValue struct {
	atom   uint64
	extra  int64
	metric uint64
	inst   uint64
}

// Value is the handle of one value of a metric: a metric's only value, or
// its value for one instance. Its methods are safe from any number of
// goroutines; a numeric update is one atomic operation on the mapped file,
// with no lock and no allocation. Handles stay valid when the file is
// rewritten (metrics added after Start).
type Value struct {
	v   atomic.Pointer[diskValue]
	s   atomic.Pointer[[StringSize]byte] // String metrics: the string slot
	typ Type
	smu sync.Mutex // serializes string writers, which copy many bytes

	home    diskValue         // where updates go before Start and after Close
	homeStr *[StringSize]byte // likewise for a string (String values only)
}

type cell = Value

func newCell(t Type) *Value {
	c := &Value{typ: t}
	c.v.Store(&c.home)
	if t == String {
		c.homeStr = new([StringSize]byte)
		c.s.Store(c.homeStr)
	}
	return c
}

func lo32(d *diskValue) *uint32 { return (*uint32)(unsafe.Pointer(&d.atom)) }

// Add adds n to the value, converted to its type as libpcp_mmv's
// mmv_inc_value converts; for Elapsed it adds n microseconds.
func (v *Value) Add(n int64) {
	// Uint64, the usual counter, takes a path small enough to be
	// inlined: one load and one atomic add, as Counter.Inc.
	if v.typ == Uint64 {
		atomic.AddUint64(&v.v.Load().atom, uint64(n))
		return
	}
	v.add(n)
}

func (v *Value) add(n int64) {
	d := v.v.Load()
	switch v.typ {
	case Int32, Uint32:
		atomic.AddUint32(lo32(d), uint32(n))
	case Int64, Uint64, Elapsed:
		atomic.AddUint64(&d.atom, uint64(n))
	case Float:
		addFloat32(lo32(d), float32(n))
	case Double:
		addFloat64(&d.atom, float64(n))
	}
}

// AddFloat adds f, truncated toward zero for integer types as C's casts
// do (adding 2.9 to an integer adds 2).
func (v *Value) AddFloat(f float64) {
	switch v.typ {
	case Float:
		addFloat32(lo32(v.v.Load()), float32(f))
	case Double:
		addFloat64(&v.v.Load().atom, f)
	case Uint32, Uint64:
		if f >= 0 {
			v.Add(int64(uint64(f)))
			return
		}
		v.Add(int64(f))
	default:
		v.Add(int64(f))
	}
}

// Set stores n, converted to the value's type.
func (v *Value) Set(n int64) {
	d := v.v.Load()
	switch v.typ {
	case Int32, Uint32:
		atomic.StoreUint32(lo32(d), uint32(n))
	case Int64, Uint64:
		atomic.StoreUint64(&d.atom, uint64(n))
	case Elapsed:
		atomic.StoreInt64(&d.extra, 0)
		atomic.StoreUint64(&d.atom, uint64(n))
	case Float:
		atomic.StoreUint32(lo32(d), math.Float32bits(float32(n)))
	case Double:
		atomic.StoreUint64(&d.atom, math.Float64bits(float64(n)))
	}
}

// SetUint stores n, for unsigned values beyond int64's range.
func (v *Value) SetUint(n uint64) {
	if v.typ == Uint64 {
		atomic.StoreUint64(&v.v.Load().atom, n)
		return
	}
	if v.typ == Double || v.typ == Float {
		v.SetFloat(float64(n))
		return
	}
	v.Set(int64(n))
}

// SetFloat stores f, truncated for integer types.
func (v *Value) SetFloat(f float64) {
	d := v.v.Load()
	switch v.typ {
	case Float:
		atomic.StoreUint32(lo32(d), math.Float32bits(float32(f)))
	case Double:
		atomic.StoreUint64(&d.atom, math.Float64bits(f))
	case Uint32, Uint64:
		if f >= 0 {
			v.SetUint(uint64(f))
			return
		}
		v.Set(int64(f))
	default:
		v.Set(int64(f))
	}
}

// SetSentinel stores the value that, with the Sentinel flag, pmdammv
// serves as "no value": all one bits for a number, empty for a string.
func (v *Value) SetSentinel() {
	if v.typ == String {
		v.SetString("")
		return
	}
	atomic.StoreUint64(&v.v.Load().atom, allOnes)
}

// SetString stores s in a String value's slot; s must be shorter than
// 255 bytes (libpcp_mmv's mmv_set_string limit) and is cut there. Writers
// are serialized; a reader copying the slot at that moment may see a mix
// of the old and new text, as with libpcp_mmv.
func (v *Value) SetString(s string) {
	if v.typ != String {
		return
	}
	if len(s) > StringSize-2 {
		s = s[:StringSize-2]
	}
	v.smu.Lock()
	defer v.smu.Unlock()
	slot := v.s.Load()
	n := copy(slot[:], s)
	clear(slot[n:])
	atomic.StoreUint32(lo32(v.v.Load()), uint32(n))
}

// StartTimer marks the start of a timed section of an Elapsed value:
// until StopTimer, pmdammv adds the time in progress to the value it
// serves. One section at a time per value, as with libpcp_mmv.
func (v *Value) StartTimer() {
	atomic.StoreInt64(&v.v.Load().extra, -time.Now().UnixMicro())
}

// StopTimer ends the timed section and adds its length to the value. For
// an instant between the two atomic steps a reader sees the value without
// the section.
func (v *Value) StopTimer() {
	d := v.v.Load()
	if start := atomic.SwapInt64(&d.extra, 0); start < 0 {
		atomic.AddUint64(&d.atom, uint64(time.Now().UnixMicro()+start))
	}
}

// Int returns the value as an integer (floats truncated).
func (v *Value) Int() int64 {
	d := v.v.Load()
	switch v.typ {
	case Int32:
		return int64(int32(atomic.LoadUint32(lo32(d))))
	case Uint32:
		return int64(atomic.LoadUint32(lo32(d)))
	case Float:
		return int64(math.Float32frombits(atomic.LoadUint32(lo32(d))))
	case Double:
		return int64(math.Float64frombits(atomic.LoadUint64(&d.atom)))
	}
	return int64(atomic.LoadUint64(&d.atom))
}

// Float returns the value as a float64.
func (v *Value) Float() float64 {
	d := v.v.Load()
	switch v.typ {
	case Float:
		return float64(math.Float32frombits(atomic.LoadUint32(lo32(d))))
	case Double:
		return math.Float64frombits(atomic.LoadUint64(&d.atom))
	case Uint64:
		return float64(atomic.LoadUint64(&d.atom))
	}
	return float64(v.Int())
}

// Text returns a String value's text.
func (v *Value) Text() string {
	v.smu.Lock()
	defer v.smu.Unlock()
	slot := v.s.Load()
	if slot == nil {
		return ""
	}
	n := 0
	for n < len(slot) && slot[n] != 0 {
		n++
	}
	return string(slot[:n])
}

func addFloat64(p *uint64, f float64) {
	for {
		old := atomic.LoadUint64(p)
		if atomic.CompareAndSwapUint64(p, old, math.Float64bits(math.Float64frombits(old)+f)) {
			return
		}
	}
}

func addFloat32(p *uint32, f float32) {
	for {
		old := atomic.LoadUint32(p)
		if atomic.CompareAndSwapUint32(p, old, math.Float32bits(math.Float32frombits(old)+f)) {
			return
		}
	}
}

// moveTo points the handle at a new home (a rewritten file) and carries
// the value there. The new home is fresh (zero) but may already take
// updates from writers that loaded the new pointer: an additive value
// (counter, elapsed time) has the old value added, others take the old
// value only if still untouched. Writers that loaded the old pointer just
// before the move may still add to the old home afterwards; for an
// additive value moveTo returns a straggler that settles those late
// updates into the new home.
func (v *Value) moveTo(d *diskValue, slot *[StringSize]byte, additive bool) *straggler {
	old := v.v.Swap(d)
	if old == d {
		return nil
	}
	var st *straggler
	switch {
	case v.typ == String:
	case additive:
		st = &straggler{c: v, old: old, snap: v.bits(old)}
		st.apply(d, 0, st.snap)
	case v.wide():
		atomic.CompareAndSwapUint64(&d.atom, 0, atomic.LoadUint64(&old.atom))
	default:
		atomic.CompareAndSwapUint32(lo32(d), 0, atomic.LoadUint32(lo32(old)))
	}
	if v.typ == Elapsed {
		atomic.CompareAndSwapInt64(&d.extra, 0, atomic.LoadInt64(&old.extra))
	}
	if v.typ == String && slot != nil {
		v.smu.Lock()
		prev := v.s.Swap(slot)
		*slot = *prev
		atomic.StoreUint32(lo32(d), atomic.LoadUint32(lo32(old)))
		v.smu.Unlock()
	}
	return st
}

func (v *Value) wide() bool { return v.typ != Int32 && v.typ != Uint32 && v.typ != Float }

// bits loads the value's bits from d.
func (v *Value) bits(d *diskValue) uint64 {
	if v.wide() {
		return atomic.LoadUint64(&d.atom)
	}
	return uint64(atomic.LoadUint32(lo32(d)))
}

// straggler is an additive value's previous home after a move, and the
// value it held when carried.
type straggler struct {
	c    *Value
	old  *diskValue
	snap uint64
}

// settle adds to the value's current home whatever reached the old home
// since the carry.
func (s *straggler) settle() {
	now := s.c.bits(s.old)
	if now == s.snap {
		return
	}
	s.c.apply(s.c.v.Load(), s.snap, now)
	s.snap = now
}

// apply adds the difference between two loads of the value's bits to d.
func (s *straggler) apply(d *diskValue, from, to uint64) { s.c.apply(d, from, to) }

func (v *Value) apply(d *diskValue, from, to uint64) {
	switch v.typ {
	case Double:
		addFloat64(&d.atom, math.Float64frombits(to)-math.Float64frombits(from))
	case Float:
		addFloat32(lo32(d), math.Float32frombits(uint32(to))-math.Float32frombits(uint32(from)))
	case Int32, Uint32:
		atomic.AddUint32(lo32(d), uint32(to)-uint32(from))
	default:
		atomic.AddUint64(&d.atom, to-from)
	}
}

// moveBack undoes moveTo after a failed rewrite. The previous home still
// holds what was carried from it (and any late updates, already settled
// into the new home up to st.snap); what the new home gained beyond that
// is added back for an additive value, and the latest value copied for
// the rest.
func (v *Value) moveBack(prev *diskValue, prevSlot *[StringSize]byte, st *straggler) {
	cur := v.v.Swap(prev)
	if cur == prev {
		return
	}
	switch {
	case v.typ == String:
		v.smu.Lock()
		if slot := v.s.Swap(prevSlot); slot != nil && prevSlot != nil {
			*prevSlot = *slot
		}
		atomic.StoreUint32(lo32(prev), atomic.LoadUint32(lo32(cur)))
		v.smu.Unlock()
	case st != nil:
		v.apply(prev, st.snap, v.bits(cur))
	case v.wide():
		atomic.StoreUint64(&prev.atom, atomic.LoadUint64(&cur.atom))
	default:
		atomic.StoreUint32(lo32(prev), atomic.LoadUint32(lo32(cur)))
	}
	if v.typ == Elapsed {
		atomic.StoreInt64(&prev.extra, atomic.LoadInt64(&cur.extra))
	}
}

// detach moves the handle back to its own memory, keeping the value.
func (v *Value) detach() {
	cur := v.v.Load()
	if cur == &v.home {
		return // never started
	}
	atomic.StoreUint64(&v.home.atom, atomic.LoadUint64(&cur.atom))
	atomic.StoreInt64(&v.home.extra, atomic.LoadInt64(&cur.extra))
	if v.typ == String {
		v.smu.Lock()
		*v.homeStr = *v.s.Load()
		v.s.Store(v.homeStr)
		v.smu.Unlock()
	}
	v.v.Store(&v.home)
}
