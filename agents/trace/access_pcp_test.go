package trace_test

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/trace"
)

// TestAccessAsPCP starts PCP's pmdatrace and ours with the same -A
// options and connects programs (our library) to both: each is let in or
// refused alike, with the same code.
func TestAccessAsPCP(t *testing.T) {
	_, ours, _ := programs(t)
	in := testbed.Need(t)
	root := pmnsRoot(t, in)
	theirs := filepath.Join(in.Var("PCP_PMDAS_DIR"), "trace", "pmdatrace")
	// Connection limits are left out: from loopback PCP's agent counts
	// each of the host's addresses (this host's name resolving to
	// 127.0.0.1 once per socket type, three times), refuses at a limit
	// of 2 or less and leaks the counts it took, and its refusal races
	// its linger-0 reset. TestAccess checks ours.
	cases := []struct {
		access []string
		conns  int // programs connected at once
	}{
		{[]string{"-A", "disallow:127.0.0.1"}, 1},
		{[]string{"-A", "allow:127.0.0.1:0"}, 2},
		{[]string{"-A", "disallow:127.0.0.*", "-A", "allow:127.0.0.1:0"}, 1},
		{[]string{"-A", "allow:127.0.0.*:0", "-A", "disallow:127.0.0.1"}, 1},
		{[]string{"-A", "disallow:10.9.8.7"}, 1},
		{[]string{"-A", "DISALLOW:*"}, 1},
		// A host that does not resolve is logged and left out.
		{[]string{"-A", "disallow:nosuchhost.invalid"}, 1},
		{[]string{"-A", "disallow:nosuchhost.invalid", "-A", "disallow:127.0.0.1"}, 1},
	}
	for _, c := range cases {
		var got [2][]int
		for i, bin := range []string{theirs, ours} {
			_, port := bedWith(t, root, append([]string{bin}, c.access...)...)
			var held []*trace.Client
			for range c.conns {
				cl, err := trace.New(trace.Options{Host: "127.0.0.1", Port: port})
				if err != nil {
					t.Fatal(err)
				}
				held = append(held, cl)
				got[i] = append(got[i], trace.CodeOf(cl.Point(context.Background(), "p")))
			}
			for _, cl := range held {
				cl.Close()
			}
		}
		if len(got[0]) != len(got[1]) {
			t.Fatalf("%v: %v vs %v", c.access, got[0], got[1])
		}
		for j := range got[0] {
			// PCP's agent closes a refused program with a reset
			// (its linger-0 socket) that may overtake its answer:
			// ECONNRESET then stands for its refusal, and ours
			// must be a refusal too.
			pcpSays, ours := got[0][j], got[1][j]
			if pcpSays == -int(syscall.ECONNRESET) && ours != 0 {
				continue
			}
			if pcpSays != ours {
				t.Errorf("%v: PCP's agent answered %v, ours %v", c.access, got[0], got[1])
				break
			}
		}
		t.Logf("%v: %v", c.access, got[0])
	}
}
