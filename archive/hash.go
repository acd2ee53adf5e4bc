package archive

// htab reproduces libpcp's __pmHashCtl: buckets of singly linked chains,
// new nodes at the head, the table growing when there are more than four
// nodes a bucket. PCP's tools print metadata in the order of these tables,
// so keeping the same shape keeps the same output.
type htab[T any] struct {
	buckets []*hnode[T]
	nodes   int
	// slab is where new nodes are cut from: a node an allocation was a
	// third of loading the 100 MB archive's metadata (1,316 descriptors).
	// Each slab is as large as the table so far, up to slabMax nodes, so
	// that the many small tables (labels of one type) stay small.
	slab []hnode[T]
}

// slabMax is the most nodes a table's slab holds.
const slabMax = 256

type hnode[T any] struct {
	key  uint32
	data T
	next *hnode[T]
}

func (h *htab[T]) search(key uint32) *hnode[T] {
	if len(h.buckets) == 0 {
		return nil
	}
	for n := h.buckets[key%uint32(len(h.buckets))]; n != nil; n = n.next {
		if n.key == key {
			return n
		}
	}
	return nil
}

func (h *htab[T]) add(key uint32, data T) *hnode[T] {
	h.nodes++
	if len(h.buckets) == 0 {
		h.buckets = make([]*hnode[T], 1)
	} else if h.nodes/4 > len(h.buckets) {
		size := len(h.buckets) * 2
		if size%2 != 0 {
			size++
		}
		if size%3 != 0 {
			size += 2
		}
		if size%5 != 0 {
			size += 2
		}
		old := h.buckets
		h.buckets = make([]*hnode[T], size)
		for i := len(old) - 1; i >= 0; i-- {
			for n := old[i]; n != nil; {
				next := n.next
				k := n.key % uint32(size)
				n.next = h.buckets[k]
				h.buckets[k] = n
				n = next
			}
		}
	}
	k := key % uint32(len(h.buckets))
	if len(h.slab) == cap(h.slab) {
		h.slab = make([]hnode[T], 0, min(max(h.nodes, 2), slabMax))
	}
	h.slab = append(h.slab, hnode[T]{key: key, data: data, next: h.buckets[k]})
	n := &h.slab[len(h.slab)-1]
	h.buckets[k] = n
	return n
}

// each visits the nodes in libpcp's walk order.
func (h *htab[T]) each(f func(n *hnode[T])) {
	for _, n := range h.buckets {
		for ; n != nil; n = n.next {
			f(n)
		}
	}
}
