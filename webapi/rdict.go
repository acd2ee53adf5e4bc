package webapi

import "encoding/binary"

// rdict is Redis's dict as libpcp_web uses it for instances and labels:
// tables of 4, 8, 16... buckets, chains with the newest entry first, a
// table doubled when it is full and moved over one bucket per lookup or
// insertion, iterated (dictNext) or scanned (dictScan) in bucket order.
// It exists so that answers list what pmproxy keeps in these tables in
// the order pmproxy lists them; every lookup and insertion must therefore
// go through find and add in the order pmproxy makes them, since each
// moves the rehash on.
type rdict[K comparable, V any] struct {
	hash      func(K) uint64
	ht        [2]rtable[K, V]
	rehashIdx int // -1 when not rehashing
}

type rentry[K comparable, V any] struct {
	key K
	val V
}

type rtable[K comparable, V any] struct {
	buckets [][]*rentry[K, V] // each chain, head first
	used    int
}

func (t *rtable[K, V]) mask() uint64 { return uint64(len(t.buckets) - 1) }

func newRDict[K comparable, V any](hash func(K) uint64) *rdict[K, V] {
	return &rdict[K, V]{hash: hash, rehashIdx: -1}
}

func (d *rdict[K, V]) rehashing() bool { return d.rehashIdx >= 0 }

func (d *rdict[K, V]) size() int { return d.ht[0].used + d.ht[1].used }

// step moves one bucket to the new table (visiting at most ten empty
// ones), as dictRehash(d, 1) does.
func (d *rdict[K, V]) step() {
	if !d.rehashing() {
		return
	}
	empty := 10
	old := &d.ht[0]
	if old.used != 0 {
		for len(old.buckets[d.rehashIdx]) == 0 {
			d.rehashIdx++
			if empty--; empty == 0 {
				return
			}
		}
		for _, e := range old.buckets[d.rehashIdx] {
			h := d.hash(e.key) & d.ht[1].mask()
			d.ht[1].buckets[h] = append([]*rentry[K, V]{e}, d.ht[1].buckets[h]...)
			old.used--
			d.ht[1].used++
		}
		old.buckets[d.rehashIdx] = nil
		d.rehashIdx++
	}
	if old.used == 0 {
		d.ht[0] = d.ht[1]
		d.ht[1] = rtable[K, V]{}
		d.rehashIdx = -1
	}
}

// find is dictFind.
func (d *rdict[K, V]) find(key K) (*rentry[K, V], bool) {
	if d.size() == 0 {
		return nil, false
	}
	d.step()
	h := d.hash(key)
	for t := 0; t <= 1; t++ {
		if len(d.ht[t].buckets) > 0 {
			for _, e := range d.ht[t].buckets[h&d.ht[t].mask()] {
				if e.key == key {
					return e, true
				}
			}
		}
		if !d.rehashing() {
			break
		}
	}
	return nil, false
}

// add is dictAdd of a key not yet there.
func (d *rdict[K, V]) add(key K, val V) {
	d.step()
	d.expandIfNeeded()
	t := &d.ht[0]
	if d.rehashing() {
		t = &d.ht[1]
	}
	h := d.hash(key) & t.mask()
	t.buckets[h] = append([]*rentry[K, V]{{key, val}}, t.buckets[h]...)
	t.used++
}

func (d *rdict[K, V]) expandIfNeeded() {
	if d.rehashing() {
		return
	}
	if len(d.ht[0].buckets) == 0 {
		d.ht[0].buckets = make([][]*rentry[K, V], 4)
		return
	}
	if d.ht[0].used >= len(d.ht[0].buckets) {
		size := 4
		for size < d.ht[0].used*2 {
			size *= 2
		}
		d.ht[1] = rtable[K, V]{buckets: make([][]*rentry[K, V], size)}
		d.rehashIdx = 0
	}
}

// each calls f for every entry in dictNext's order.
func (d *rdict[K, V]) each(f func(*rentry[K, V])) {
	for t := 0; t <= 1; t++ {
		for _, chain := range d.ht[t].buckets {
			for _, e := range chain {
				f(e)
			}
		}
		if !d.rehashing() {
			break
		}
	}
}

// scan calls f for every entry in the order of a whole dictScan loop.
func (d *rdict[K, V]) scan(f func(*rentry[K, V])) {
	if d.size() == 0 {
		return
	}
	emit := func(chain []*rentry[K, V]) {
		for _, e := range chain {
			f(e)
		}
	}
	var v uint64
	for {
		var m0 uint64
		if !d.rehashing() {
			t0 := &d.ht[0]
			m0 = t0.mask()
			emit(t0.buckets[v&m0])
		} else {
			t0, t1 := &d.ht[0], &d.ht[1]
			if len(t0.buckets) > len(t1.buckets) {
				t0, t1 = t1, t0
			}
			m0 = t0.mask()
			m1 := t1.mask()
			emit(t0.buckets[v&m0])
			for {
				emit(t1.buckets[v&m1])
				v = (((v | m0) + 1) &^ m0) | (v & m0)
				if v&(m0^m1) == 0 {
					break
				}
			}
		}
		v |= ^m0
		v = rev64(v)
		v++
		v = rev64(v)
		if v == 0 {
			return
		}
	}
}

func rev64(v uint64) uint64 {
	s := uint64(64)
	mask := ^uint64(0)
	for {
		s >>= 1
		if s == 0 {
			return v
		}
		mask ^= mask << s
		v = ((v >> s) & mask) | ((v << s) &^ mask)
	}
}

// hashInst is intHashCallBack: the 4-byte instance number, host order.
func hashInst(inst int32) uint64 {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(inst))
	return sipHash12(b[:])
}

func hashString(s string) uint64 { return sipHash12([]byte(s)) }

// sipHash12 is SipHash-1-2 (Redis's cut-down variant) with a zero key,
// Redis's dictGenHashFunction when no seed has been set (pmproxy sets
// none).
func sipHash12(in []byte) uint64 {
	v0 := uint64(0x736f6d6570736575)
	v1 := uint64(0x646f72616e646f6d)
	v2 := uint64(0x6c7967656e657261)
	v3 := uint64(0x7465646279746573)
	rotl := func(x uint64, b uint) uint64 { return x<<b | x>>(64-b) }
	round := func() {
		v0 += v1
		v1 = rotl(v1, 13)
		v1 ^= v0
		v0 = rotl(v0, 32)
		v2 += v3
		v3 = rotl(v3, 16)
		v3 ^= v2
		v0 += v3
		v3 = rotl(v3, 21)
		v3 ^= v0
		v2 += v1
		v1 = rotl(v1, 17)
		v1 ^= v2
		v2 = rotl(v2, 32)
	}
	n := len(in)
	for len(in) >= 8 {
		m := binary.LittleEndian.Uint64(in)
		v3 ^= m
		round()
		v0 ^= m
		in = in[8:]
	}
	b := uint64(n) << 56
	for i, c := range in {
		b |= uint64(c) << (8 * uint(i))
	}
	v3 ^= b
	round()
	v0 ^= b
	v2 ^= 0xff
	round()
	round()
	return v0 ^ v1 ^ v2 ^ v3
}
