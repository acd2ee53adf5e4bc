// Package packfmt is a test helper: it writes pack(1)'s format, which
// gzip -dc reads (and so libpcp, for .gz, .Z and .z archive files) but
// no Debian package writes, so that the tests of the reader can make
// inputs and have the real gzip judge them.
package packfmt

import (
	"encoding/binary"
	"sort"
)

// Encode writes data in pack(1)'s format: the magic 0x1f 0x1e, the
// length, the code's shape and leaves, the codes and the end code. The
// code is Huffman's, with the end code moved to the longest length if
// it is not there. Content of all 256 byte values gives a code gzip
// refuses (it takes at most 255 leaves besides the end code).
func Encode(data []byte) []byte {
	const eob = 256
	freq := make([]int, 257)
	for _, b := range data {
		freq[b]++
	}
	syms := []int{eob}
	for s := 0; s < 256; s++ {
		if freq[s] > 0 {
			syms = append(syms, s)
		}
	}
	if len(syms) == 1 {
		syms = append(syms, 0) // a code needs two leaves
	}
	// Huffman's code lengths
	type node struct{ w, sym, l, r int }
	nodes := []node{}
	live := []int{}
	for _, s := range syms {
		nodes = append(nodes, node{freq[s], s, -1, -1})
		live = append(live, len(nodes)-1)
	}
	for len(live) > 1 {
		sort.SliceStable(live, func(i, j int) bool { return nodes[live[i]].w < nodes[live[j]].w })
		a, b := live[0], live[1]
		nodes = append(nodes, node{nodes[a].w + nodes[b].w, -1, a, b})
		live = append(live[2:], len(nodes)-1)
	}
	length := map[int]int{}
	var walk func(n, d int)
	walk = func(n, d int) {
		if nodes[n].sym >= 0 {
			length[nodes[n].sym] = d
			return
		}
		walk(nodes[n].l, d+1)
		walk(nodes[n].r, d+1)
	}
	walk(live[0], 0)
	maxLen := 0
	for _, l := range length {
		maxLen = max(maxLen, l)
	}
	if length[eob] != maxLen {
		for _, s := range syms {
			if length[s] == maxLen {
				length[s], length[eob] = length[eob], maxLen
				break
			}
		}
	}
	// leaves by length, the end code last at the longest
	byLen := make([][]int, maxLen+1)
	for _, s := range syms[1:] {
		byLen[length[s]] = append(byLen[length[s]], s)
	}
	byLen[maxLen] = append(byLen[maxLen], eob)
	parents := make([]int, maxLen+1)
	nodesAt := 0
	for l := maxLen; l >= 1; l-- {
		nodesAt >>= 1
		parents[l] = nodesAt
		nodesAt += len(byLen[l])
	}
	code := map[int]int{}
	for l := 1; l <= maxLen; l++ {
		for k, s := range byLen[l] {
			code[s] = parents[l] + k
		}
	}
	out := []byte{0x1f, 0x1e}
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	out = append(out, byte(maxLen))
	for l := 1; l <= maxLen; l++ {
		n := len(byLen[l])
		if l == maxLen {
			n -= 2
		}
		out = append(out, byte(n))
	}
	for l := 1; l <= maxLen; l++ {
		for _, s := range byLen[l] {
			if s != eob {
				out = append(out, byte(s))
			}
		}
	}
	var acc uint64
	nacc := 0
	put := func(s int) {
		acc = acc<<length[s] | uint64(code[s])
		nacc += length[s]
		for nacc >= 8 {
			out = append(out, byte(acc>>(nacc-8)))
			nacc -= 8
		}
	}
	for _, b := range data {
		put(int(b))
	}
	put(eob)
	if nacc > 0 {
		out = append(out, byte(acc<<(8-nacc)))
	}
	return out
}
