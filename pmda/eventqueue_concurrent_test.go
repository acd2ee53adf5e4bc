package pmda

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// TestEventQueueConcurrent appends from one goroutine while three
// clients read on others, as pmcd's concurrent fetches would: every
// event reaches every reader exactly once, in order, unless the queue
// reports it missed. Goroutines report through channels, never t.Fatal.
func TestEventQueueConcurrent(t *testing.T) {
	var qs EventQueues
	q, err := qs.NewQueue("q", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	const readers, events = 3, 2000
	for c := Client(1); c <= readers; c++ {
		qs.NewClient(c)
		if err := q.SetAccess(c, true); err != nil {
			t.Fatal(err)
		}
		if _, err := q.Records(c, decodeString); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan struct{})
	errs := make(chan error, readers+1)
	var wg sync.WaitGroup
	for c := Client(1); c <= readers; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			next, missed := 0, 0
			read := func() error {
				vb, err := q.Records(c, decodeString)
				if err != nil || vb == nil {
					return err
				}
				recs, err := pcp.UnpackEvents(vb.Data, false)
				if err != nil {
					return err
				}
				for _, r := range recs {
					for _, p := range r.Params {
						switch p.PMID {
						case pcp.PMIDEventMissed:
							missed += int(p.Values[0].LVal)
						case queueParam:
							var n int
							fmt.Sscanf(string(p.Values[0].Block.Data), "e%d", &n)
							if n < next {
								return fmt.Errorf("client %d: event %d after %d", c, n, next)
							}
							next = n + 1
						}
					}
				}
				return nil
			}
			for {
				select {
				case <-done:
					if err := read(); err != nil {
						errs <- err
					} else if next+missed < events {
						errs <- fmt.Errorf("client %d: read up to %d with %d missed of %d", c, next, missed, events)
					}
					return
				default:
					if err := read(); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	for i := range events {
		if err := q.Append(fmt.Appendf(nil, "e%d", i), time.Now()); err != nil {
			errs <- err
			break
		}
	}
	close(done)
	wait := make(chan struct{})
	go func() { wg.Wait(); close(wait) }()
	select {
	case <-wait:
	case <-time.After(2 * time.Minute):
		t.Fatal("readers did not finish: the queue is stuck")
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
