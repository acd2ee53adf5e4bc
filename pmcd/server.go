package pmcd

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"sync"
	"time"

	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// Server serves PCP clients. Its fields are set before Serve and not
// changed afterwards; one Server may serve several listeners at once.
type Server struct {
	// PMNS is the namespace the server answers from.
	PMNS *pmns.Tree
	// MaxPDU caps the length of a PDU a client may send (pmcd's -L);
	// zero means PCP's 64 KiB.
	MaxPDU int
	// Timeout bounds reading one client PDU once it has begun, and
	// sending one; zero means pdu.DefaultTimeout.
	Timeout time.Duration
	// Log receives one line per client problem; nil discards them.
	Log *log.Logger

	wg sync.WaitGroup
}

// Serve accepts clients on l until ctx is done or l fails, serving each on
// its own goroutine, and waits for them to finish before returning. It
// closes l.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	if s.PMNS == nil {
		return errNoNamespace
	}
	stop := context.AfterFunc(ctx, func() { l.Close() })
	defer stop()
	defer s.wg.Wait()
	for {
		conn, err := l.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return fmt.Errorf("pmcd: cannot accept: %w", err)
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.serveClient(ctx, conn)
		}()
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.Log != nil {
		s.Log.Printf(format, args...)
	}
}

func (s *Server) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return pdu.DefaultTimeout
}

func (s *Server) maxPDU() int {
	if s.MaxPDU > 0 {
		return s.MaxPDU
	}
	return pdu.ClientMaxLen
}
