package main

import "testing"

// TestFreeFD: the descriptor PCP's dbpmda names for a pipe agent and a socket
// agent, for the descriptors it started with.
func TestFreeFD(t *testing.T) {
	defer func(m map[int]bool) { takenFDs = m }(takenFDs)
	for _, c := range []struct {
		taken     []int
		pipe, sck int
	}{
		{[]int{0, 1, 2}, 5, 3},
		{[]int{0, 1, 2, 3}, 6, 4},
		{[]int{0, 1, 2, 4}, 6, 3},
		{[]int{1, 2}, 4, 0},
	} {
		takenFDs = map[int]bool{}
		for _, fd := range c.taken {
			takenFDs[fd] = true
		}
		if p, s := freeFD(2), freeFD(0); p != c.pipe || s != c.sck {
			t.Errorf("taken %v: pipe %d socket %d, want %d %d", c.taken, p, s, c.pipe, c.sck)
		}
	}
}
