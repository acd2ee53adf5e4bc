package webapi

import (
	"context"
	"time"

	"github.com/gopcp/gopcp/pmapi"
)

// Opener makes the PMAPI context behind a web context from the request's
// host specification ("localhost" when it names none).
type Opener func(ctx context.Context, hostspec string) (pmapi.Source, error)

// Options are a Server's settings; zero values take the defaults below.
type Options struct {
	// Open makes contexts; nil opens a host context with pmapi's
	// defaults (pmapi.NewContext with pmapi.KindHost).
	Open Opener
	// MaxContexts bounds the web contexts alive at once (default 4096);
	// a request needing another gets 503 Service Unavailable.
	MaxContexts int
	// MaxClientContexts bounds those made from one client address
	// (default 512); a request needing another gets 429 Too Many Requests.
	MaxClientContexts int
	// MaxNames bounds the comma-separated names, PMIDs or instances in
	// one request (default 10000).
	MaxNames int
	// MaxCached bounds the metrics and instances one context keeps
	// metadata for (default 200000); past it the cache is dropped and
	// refilled, so memory stays bounded whatever clients ask.
	MaxCached int
	// PollTimeout is a context's life after its last use when the request
	// names none (default 5s, pmproxy's).
	PollTimeout time.Duration
	// MaxPollTimeout caps a requested poll timeout (default 1h).
	MaxPollTimeout time.Duration
	// Sweep is the interval at which expired contexts are forgotten
	// (default 2s, pmproxy's pmwebapi.work).
	Sweep time.Duration
	// RequestTimeout bounds the PMAPI calls of one request (default 60s).
	RequestTimeout time.Duration
	// OnSweep, when set, is told after each sweep how many contexts it
	// looked at and how many it forgot, what pmproxy exports as its
	// webgroup.gc.context.scans and .drops. It runs on the sweeping
	// goroutine and must not block.
	OnSweep func(scanned, dropped int)
}

func (o *Options) setDefaults() {
	if o.Open == nil {
		o.Open = func(ctx context.Context, spec string) (pmapi.Source, error) {
			return pmapi.NewContext(ctx, pmapi.KindHost, spec)
		}
	}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxContexts, 4096)
	def(&o.MaxClientContexts, 512)
	def(&o.MaxNames, 10000)
	def(&o.MaxCached, 200000)
	dur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	dur(&o.PollTimeout, 5*time.Second)
	dur(&o.MaxPollTimeout, time.Hour)
	dur(&o.Sweep, 2*time.Second)
	dur(&o.RequestTimeout, 60*time.Second)
}
