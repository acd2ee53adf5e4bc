package pmda

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// TestEventQueueExactlyOnce is the promise of pmdaEventNewQueue(3) that
// libpcp_pmda does not keep and ours does, under any interleaving of
// appends and fetches by several readers (the scripts compared with PCP
// stay out of this ground): every reader is sent every event appended
// after it joined exactly once and in order, or is told it missed it,
// and the queue never holds more than its limit.
func TestEventQueueExactlyOnce(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 11))
		var qs EventQueues
		limit := 8 + r.IntN(200)
		q, err := qs.NewQueue("q", limit)
		if err != nil {
			t.Fatal(err)
		}
		nc := 1 + r.IntN(4)
		got := make([][]int, nc+1)
		missed := make([]int, nc+1)
		read := func(c int) {
			vb, err := q.Records(Client(c), decodeString)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if vb == nil {
				return
			}
			recs, err := pcp.UnpackEvents(vb.Data, false)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			for i, rec := range recs {
				for _, p := range rec.Params {
					switch p.PMID {
					case pcp.PMIDEventMissed:
						if i != len(recs)-1 {
							t.Fatalf("seed %d: missed record not last", seed)
						}
						missed[c] += int(p.Values[0].LVal)
					case queueParam:
						n, _ := strconv.Atoi(strings.TrimRight(string(p.Values[0].Block.Data), "x"))
						got[c] = append(got[c], n)
					}
				}
			}
		}
		for c := 1; c <= nc; c++ {
			qs.NewClient(Client(c))
			q.SetAccess(Client(c), true)
			read(c)
		}
		kept := 0 // events small enough to be kept
		for i := range 300 {
			if r.IntN(3) > 0 {
				size := 1 + r.IntN(limit/2+8)
				text := fmt.Sprint(i)
				if len(text) > size {
					size = len(text)
				}
				q.Append([]byte(text+strings.Repeat("x", size-len(text))), time.Unix(int64(i), 0))
				if size <= limit {
					kept++
				}
				if int(q.Memory()) > limit {
					t.Fatalf("seed %d: memory %d over the limit %d", seed, q.Memory(), limit)
				}
				continue
			}
			read(1 + r.IntN(nc))
		}
		for c := 1; c <= nc; c++ {
			read(c)
			for i := 1; i < len(got[c]); i++ {
				if got[c][i] <= got[c][i-1] {
					t.Fatalf("seed %d: client %d got %d after %d", seed, c, got[c][i], got[c][i-1])
				}
			}
			if len(got[c])+missed[c] != kept {
				t.Fatalf("seed %d: client %d got %d events and missed %d of %d", seed, c, len(got[c]), missed[c], kept)
			}
		}
		if q.Memory() != 0 {
			t.Fatalf("seed %d: %d bytes held after every reader read", seed, q.Memory())
		}
	}
}

// FuzzEventQueueScript runs any script through our queues: nothing
// panics and no client is sent an event twice.
func FuzzEventQueueScript(f *testing.F) {
	f.Add("queue q 10\nclient 1\naccess q 1 1\nrecords q 1\nappend q 1.0 a1\nappend q 1.0 b2xxxxxxxxx\nrecords q 1\n")
	f.Add("active q 100 2\nappend q 1.0 a1\nclient 1\nfilter q 1 a\nrecords q 1\nshutdown q\nend 1\nmemory q\n")
	f.Add("queue q 100\nclient 1\nclient 2\naccess q 1 1\nrecords q 1\nappend q 1.0 F1\nrecords q 2\nend 1\nrecords q 2\n")
	f.Fuzz(func(t *testing.T, script string) {
		if err := checkNoDuplicates(runQueueScript(script, false)); err != nil && uniqueAppends(script) {
			t.Fatal(err)
		}
	})
}

// uniqueAppends reports whether no two appends of a script carry the same
// text, so a repeated text in the output is a repeated event.
func uniqueAppends(script string) bool {
	seen := map[string]bool{}
	for _, l := range strings.Split(script, "\n") {
		f := strings.Fields(l)
		if len(f) >= 4 && f[0] == "append" {
			k := f[1] + " " + f[3]
			if seen[k] {
				return false
			}
			seen[k] = true
		}
	}
	return true
}
