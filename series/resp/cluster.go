package resp

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// SlotRange is a range of hash slots and the address of the master that
// serves them.
type SlotRange struct {
	Start, End int
	Addr       string
}

// Cluster is a client of a Redis Cluster: commands go to the master of
// their key's slot, as CLUSTER SLOTS gives the slots (asked of the seeds
// at the first call, and again when the cluster says it changed).
type Cluster struct {
	seeds []string
	opt   Options

	mu     sync.Mutex
	nodes  map[string]*Pool
	owner  []int16  // a slot's index in addrs; nil until first asked
	addrs  []string // the masters, as CLUSTER SLOTS named them
	closed bool
}

// NewCluster makes a client of the cluster that seeds (host:port of any
// of its nodes) belong to. Nothing is dialled until the first call.
func NewCluster(seeds []string, opt Options) *Cluster {
	return &Cluster{seeds: seeds, opt: opt.withDefaults(), nodes: map[string]*Pool{}}
}

// Options are the cluster's settings, defaults filled in.
func (c *Cluster) Options() Options { return c.opt }

// Close closes every node's connections.
func (c *Cluster) Close() error {
	c.mu.Lock()
	c.closed = true
	nodes := c.nodes
	c.nodes = map[string]*Pool{}
	c.mu.Unlock()
	for _, p := range nodes {
		p.Close()
	}
	return nil
}

func (c *Cluster) pool(addr string) (*Pool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, ErrClosed
	}
	p := c.nodes[addr]
	if p == nil {
		p = NewPool(addr, c.opt)
		c.nodes[addr] = p
	}
	return p, nil
}

// Slots asks the cluster for its slots (CLUSTER SLOTS of the seeds, then
// of the nodes known, the first that answers) and keeps them for routing.
func (c *Cluster) Slots(ctx context.Context) ([]SlotRange, error) {
	c.mu.Lock()
	ask := append(append([]string(nil), c.seeds...), c.addrs...)
	c.mu.Unlock()
	var lastErr error
	for _, a := range ask {
		p, err := c.pool(a)
		if err != nil {
			return nil, err
		}
		v, err := p.Do(ctx, "CLUSTER", "SLOTS")
		if err != nil {
			lastErr = err
			if ctx.Err() != nil {
				break
			}
			continue
		}
		ranges, err := parseSlots(v, a)
		if err != nil {
			lastErr = err
			continue
		}
		c.setSlots(ranges)
		return ranges, nil
	}
	if lastErr == nil {
		lastErr = fmt.Errorf("no cluster nodes given")
	}
	return nil, fmt.Errorf("cluster slots: %w", lastErr)
}

// parseSlots reads CLUSTER SLOTS's reply: [start, end, [host, port, ...],
// replicas...] for each range. A node without a host is on the host of
// the node asked (from).
func parseSlots(v Value, from string) ([]SlotRange, error) {
	if v.Kind != KindArray {
		return nil, malformed("CLUSTER SLOTS reply of kind %d", v.Kind)
	}
	fromHost, _, _ := net.SplitHostPort(from)
	var out []SlotRange
	for _, r := range v.Elems {
		if r.Kind != KindArray || len(r.Elems) < 3 || r.Elems[2].Kind != KindArray || len(r.Elems[2].Elems) < 2 {
			return nil, malformed("CLUSTER SLOTS range")
		}
		start, ok1 := r.Elems[0].Integer()
		end, ok2 := r.Elems[1].Integer()
		host, _ := r.Elems[2].Elems[0].Text()
		port, ok3 := r.Elems[2].Elems[1].Integer()
		if !ok1 || !ok2 || !ok3 || start < 0 || end >= Slots || start > end || port <= 0 || port > 65535 {
			return nil, malformed("CLUSTER SLOTS range %d-%d port %d", start, end, port)
		}
		if host == "" || host == "?" {
			host = fromHost
		}
		out = append(out, SlotRange{int(start), int(end), net.JoinHostPort(host, strconv.FormatInt(port, 10))})
	}
	return out, nil
}

func (c *Cluster) setSlots(ranges []SlotRange) {
	owner := make([]int16, Slots)
	for i := range owner {
		owner[i] = -1
	}
	var addrs []string
	index := map[string]int16{}
	for _, r := range ranges {
		n, ok := index[r.Addr]
		if !ok {
			n = int16(len(addrs))
			index[r.Addr] = n
			addrs = append(addrs, r.Addr)
		}
		for s := r.Start; s <= r.End; s++ {
			owner[s] = n
		}
	}
	c.mu.Lock()
	c.owner, c.addrs = owner, addrs
	c.mu.Unlock()
}

// moved notes a slot's new master, from a MOVED reply.
func (c *Cluster) moved(slot int, addr string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.owner == nil || slot < 0 || slot >= Slots {
		return
	}
	for i, a := range c.addrs {
		if a == addr {
			c.owner[slot] = int16(i)
			return
		}
	}
	if len(c.addrs) < 1<<15-1 {
		c.addrs = append(c.addrs, addr)
		c.owner[slot] = int16(len(c.addrs) - 1)
	}
}

// route is the address a command goes to: its key's master, or for a
// command without a key (or a slot no master serves) any node.
func (c *Cluster) route(ctx context.Context, args []string) (string, error) {
	c.mu.Lock()
	loaded := c.owner != nil
	c.mu.Unlock()
	if !loaded {
		if _, err := c.Slots(ctx); err != nil {
			return "", err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if k, ok := commandKey(args); ok {
		if n := c.owner[KeySlot(k)]; n >= 0 {
			return c.addrs[n], nil
		}
	}
	if len(c.addrs) > 0 {
		return c.addrs[0], nil
	}
	if len(c.seeds) > 0 {
		return c.seeds[0], nil
	}
	return "", fmt.Errorf("no cluster nodes given")
}

// Do sends one command to the node of its key.
func (c *Cluster) Do(ctx context.Context, args ...string) (Value, error) {
	vs, err := c.Pipeline(ctx, [][]string{args})
	if err != nil {
		return Value{}, err
	}
	return vs[0], vs[0].Err()
}

// Pipeline sends cmds, each to the node of its key (a pipeline a node,
// side by side), and reads their replies. Commands answered MOVED, ASK,
// TRYAGAIN or CLUSTERDOWN, or whose node failed, are sent again where the
// cluster says, in their order, up to MaxRedirects times.
func (c *Cluster) Pipeline(ctx context.Context, cmds [][]string) ([]Value, error) {
	res := make([]Value, len(cmds))
	todo := make([]int, len(cmds))
	for i := range todo {
		todo[i] = i
	}
	asking := map[int]string{} // commands to send with ASKING, and where
	for round := 0; ; round++ {
		groups := map[string][]int{}
		var order []string
		for _, i := range todo {
			addr, ok := asking[i]
			if !ok {
				var err error
				if addr, err = c.route(ctx, cmds[i]); err != nil {
					return nil, err
				}
			}
			if _, seen := groups[addr]; !seen {
				order = append(order, addr)
			}
			groups[addr] = append(groups[addr], i)
		}
		replies := make([][]Value, len(order))
		errs := make([]error, len(order))
		var wg sync.WaitGroup
		for g, addr := range order {
			wg.Add(1)
			go func() {
				defer wg.Done()
				replies[g], errs[g] = c.send(ctx, addr, cmds, groups[addr], asking)
			}()
		}
		wg.Wait()
		var again []int
		var lastErr error
		refresh, wait := false, false
		for g, addr := range order {
			idx := groups[addr]
			if errs[g] != nil {
				if ctx.Err() != nil || errs[g] == ErrClosed {
					return nil, errs[g]
				}
				lastErr = errs[g]
				again = append(again, idx...)
				refresh = true
				continue
			}
			for k, i := range idx {
				v := replies[g][k]
				delete(asking, i)
				if v.Kind != KindError {
					res[i] = v
					continue
				}
				e := &Error{Msg: v.Str}
				switch e.Prefix() {
				case "MOVED":
					slot, to, ok := redirect(e.Msg, addr)
					if !ok {
						res[i] = v
						continue
					}
					c.moved(slot, to)
					refresh = true
				case "ASK":
					_, to, ok := redirect(e.Msg, addr)
					if !ok {
						res[i] = v
						continue
					}
					asking[i] = to
				case "TRYAGAIN":
					wait = true
				case "CLUSTERDOWN":
					wait, refresh = true, true
				default:
					res[i] = v
					continue
				}
				lastErr = e
				again = append(again, i)
			}
		}
		if len(again) == 0 {
			return res, nil
		}
		if round >= c.opt.MaxRedirects {
			return nil, fmt.Errorf("%w (%d): %w", ErrRedirects, round+1, lastErr)
		}
		slices.Sort(again)
		todo = again
		if wait {
			if err := sleep(ctx, time.Duration(10<<min(round, 5))*time.Millisecond); err != nil {
				return nil, err
			}
		}
		if refresh {
			if _, err := c.Slots(ctx); err != nil && ctx.Err() != nil {
				return nil, err
			}
		}
	}
}

// send runs the commands idx of cmds on addr's pipeline, those asked to
// go there by ASK after an ASKING; it returns a reply for each.
func (c *Cluster) send(ctx context.Context, addr string, cmds [][]string, idx []int, asking map[int]string) ([]Value, error) {
	p, err := c.pool(addr)
	if err != nil {
		return nil, err
	}
	batch := make([][]string, 0, len(idx))
	for _, i := range idx {
		if _, ok := asking[i]; ok {
			batch = append(batch, []string{"ASKING"})
		}
		batch = append(batch, cmds[i])
	}
	vs, err := p.Pipeline(ctx, batch)
	if err != nil || len(batch) == len(idx) {
		return vs, err
	}
	out := make([]Value, 0, len(idx))
	j := 0
	for _, i := range idx {
		if _, ok := asking[i]; ok {
			j++ // ASKING's own OK
		}
		out = append(out, vs[j])
		j++
	}
	return out, nil
}

// redirect reads "MOVED <slot> <host:port>" or "ASK ..."; a host left
// empty is from's.
func redirect(msg, from string) (slot int, addr string, ok bool) {
	f := strings.Fields(msg)
	if len(f) != 3 {
		return 0, "", false
	}
	slot, err := strconv.Atoi(f[1])
	if err != nil || slot < 0 || slot >= Slots {
		return 0, "", false
	}
	host, port, err := net.SplitHostPort(f[2])
	if err != nil || port == "" {
		return 0, "", false
	}
	if host == "" {
		host, _, _ = net.SplitHostPort(from)
	}
	return slot, net.JoinHostPort(host, port), true
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
