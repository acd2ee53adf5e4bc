package trace

import (
	"context"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/trace"
)

// FuzzStream gives the agent arbitrary bytes from a program: it must end
// the connection or take the data, never fail, and keep within its tag
// bound.
func FuzzStream(f *testing.F) {
	f.Add(trace.AppendData(nil, 1, "obs_tag", trace.TypeObserve, true, 3.25))
	f.Add(append(trace.AppendData(nil, 1, "a", trace.TypePoint, false, -1), trace.AppendData(nil, 1, "b", trace.TypeTransact, true, 0.5)...))
	f.Add([]byte{0, 0, 0, 28, 0, 0, 0x70, 0x51, 0, 0, 0, 1, 1, 2, 5, 0})
	f.Fuzz(func(t *testing.T, stream []byte) {
		a, err := New(Domain, Options{ManualTicks: true, MaxTags: 4, PDUTimeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		srv, prog := net.Pipe()
		var wg sync.WaitGroup
		wg.Go(func() { io.Copy(io.Discard, prog) })
		wg.Go(func() {
			prog.Write(stream)
			prog.Close()
		})
		a.readData(context.Background(), srv)
		srv.Close()
		wg.Wait()
		a.mu.Lock()
		defer a.mu.Unlock()
		if n := len(a.st.entries); n > 4 {
			t.Fatalf("%d tags kept, bound 4", n)
		}
		a.st.summarise()
	})
}
