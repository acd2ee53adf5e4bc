package resp

import (
	"context"
	"fmt"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/redistest"
)

// TestClusterAgainstRedis: a cluster of three private redis-servers; the
// slots discovered from one seed, commands routed by key slot (checked
// against CLUSTER KEYSLOT and each node's keys), MOVED followed when the
// client's table is wrong, and ASK followed while a slot migrates.
func TestClusterAgainstRedis(t *testing.T) {
	cl := redistest.StartCluster(t, 3)
	ctx := context.Background()
	c := NewCluster(cl.Addrs()[:1], Options{})
	defer c.Close()
	ranges, err := c.Slots(ctx)
	if err != nil {
		t.Fatal(err)
	}
	covered, masters := 0, map[string]bool{}
	for _, r := range ranges {
		covered += r.End - r.Start + 1
		masters[r.Addr] = true
	}
	if covered != Slots || len(masters) != 3 {
		t.Fatalf("slots: %d covered by %d masters: %+v", covered, len(masters), ranges)
	}
	node := map[string]*Pool{}
	for _, a := range cl.Addrs() {
		node[a] = NewPool(a, Options{})
		defer node[a].Close()
	}
	seed := node[cl.Addrs()[0]]
	for _, k := range []string{"", "foo", "123456789", "pcp:values:series:5480cfb79a259e31e8713c60503cbf5f1e0bb269",
		"pcp:map:label.09be7733f1b5ed42572d26928a5e56ccf91ea8b8.value", "{user1000}.following", "foo{}{bar}",
		"foo{{bar}}zap", "foo{bar}{zap}", "{", "}{", "\xff\x00{\x80}"} {
		v, err := seed.Do(ctx, "CLUSTER", "KEYSLOT", k)
		if err != nil {
			t.Fatal(err)
		}
		if got := KeySlot(k); int64(got) != v.Int {
			t.Errorf("slot of %q: %d, Redis says %d", k, got, v.Int)
		}
	}
	const n = 300
	var set, get [][]string
	for i := range n {
		k := fmt.Sprintf("key:%d", i)
		set = append(set, []string{"SET", k, k})
		get = append(get, []string{"GET", k})
	}
	if vs, err := c.Pipeline(ctx, set); err != nil || len(vs) != n {
		t.Fatalf("SET pipeline: %v", err)
	}
	total, spread := int64(0), 0
	for _, p := range node {
		v, err := p.Do(ctx, "DBSIZE")
		if err != nil {
			t.Fatal(err)
		}
		total += v.Int
		if v.Int > 0 {
			spread++
		}
	}
	if total != n || spread != 3 {
		t.Errorf("%d keys over %d nodes, want %d over 3", total, spread, n)
	}
	check := func(what string) {
		t.Helper()
		vs, err := c.Pipeline(ctx, get)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for i, v := range vs {
			if s, _ := v.Text(); s != get[i][1] {
				t.Fatalf("%s: GET %s = %+v", what, get[i][1], v)
			}
		}
	}
	check("routed")
	// a table with every slot on one node: the others answer MOVED
	c.setSlots([]SlotRange{{0, Slots - 1, ranges[0].Addr}})
	check("moved")
	if v, err := c.Do(ctx, "GET", "key:1"); err != nil || v.Str != "key:1" {
		t.Errorf("Do after MOVED: %+v %v", v, err)
	}

	// a slot migrating from one master to another: a key the source
	// lacks is answered ASK, and written to the target
	k := "ask:{x}"
	slot := KeySlot(k)
	from, _ := c.route(ctx, []string{"GET", k})
	var to string
	for a := range masters {
		if a != from {
			to = a
			break
		}
	}
	id := func(a string) string {
		v, err := node[a].Do(ctx, "CLUSTER", "MYID")
		if err != nil {
			t.Fatal(err)
		}
		return v.Str
	}
	if _, err := node[to].Do(ctx, "CLUSTER", "SETSLOT", fmt.Sprint(slot), "IMPORTING", id(from)); err != nil {
		t.Fatal(err)
	}
	if _, err := node[from].Do(ctx, "CLUSTER", "SETSLOT", fmt.Sprint(slot), "MIGRATING", id(to)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(ctx, "SET", k, "v"); err != nil {
		t.Fatalf("SET during migration: %v", err)
	}
	if v, err := c.Do(ctx, "GET", k); err != nil || v.Str != "v" {
		t.Fatalf("GET during migration: %+v %v", v, err)
	}
	if v, _ := node[to].Do(ctx, "CLUSTER", "COUNTKEYSINSLOT", fmt.Sprint(slot)); v.Int != 1 {
		t.Errorf("the target holds %d keys of the slot, want 1", v.Int)
	}
	if v, _ := node[from].Do(ctx, "CLUSTER", "COUNTKEYSINSLOT", fmt.Sprint(slot)); v.Int != 0 {
		t.Errorf("the source holds %d keys of the slot, want 0", v.Int)
	}
}
