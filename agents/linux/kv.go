package linux

import "github.com/gopcp/gopcp/pmda"

// kvData holds the numbers of a "name value" file (/proc/meminfo,
// /proc/vmstat, the SNMP tables) in slots fixed when metrics are bound, so
// parsing stores by map lookup without allocating and a missing name
// leaves its slot unset.
type kvData struct {
	index map[string]int
	vals  []uint64
	seen  []bool
}

// slot returns key's slot, making one at bind time.
func (k *kvData) slot(key string) int {
	if k.index == nil {
		k.index = make(map[string]int)
	}
	if i, ok := k.index[key]; ok {
		return i
	}
	i := len(k.vals)
	k.index[key] = i
	k.vals = append(k.vals, 0)
	k.seen = append(k.seen, false)
	return i
}

// reset forgets every value before a new parse.
func (k *kvData) reset() { clear(k.seen) }

// set stores v under key if some metric wants it.
func (k *kvData) set(key []byte, v uint64) {
	if i, ok := k.index[string(key)]; ok {
		k.vals[i] = v
		k.seen[i] = true
	}
}

// setPrefixed stores v under prefix+key, building the key in scratch.
func (k *kvData) setPrefixed(scratch *[]byte, prefix, key []byte, v uint64) {
	*scratch = append(append((*scratch)[:0], prefix...), key...)
	k.set(*scratch, v)
}

// value returns slot i's value, or false when the last parse lacked it.
func (k *kvData) value(i int) (uint64, bool) { return k.vals[i], k.seen[i] }

// getter returns a getter of slot i: its value, or no value when the
// last parse did not see the name.
func (k *kvData) getter(i int) getter {
	return func(int32) (pcpAtom, error) {
		v, ok := k.value(i)
		if !ok {
			return pcpAtom{}, pmda.ErrNoValue
		}
		return u64(v), nil
	}
}
