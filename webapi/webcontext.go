package webapi

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopcp/gopcp/internal/hostlabels"
	"github.com/gopcp/gopcp/internal/webid"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi/derived"
)

// webContext is one web context: a PMAPI context and the metadata pmproxy
// keeps beside it (libpcp_web's context_t), which decides some of what the
// answers hold (labels merged from the levels loaded so far).
type webContext struct {
	id      uint32
	origin  string // the identifier as text
	client  string
	timeout time.Duration

	// lastUse is the Unix nanosecond of the last request's start or end;
	// busy counts requests in progress, which keep it alive.
	lastUse atomic.Int64
	busy    atomic.Int32
	closed  bool // its PMAPI context closed; guarded by the registry's lock

	mu  sync.Mutex // one request at a time, as pmproxy's libpcp calls are
	src *derived.Source

	// user and pass are the credentials later requests must repeat
	// (auth.go); nil when it was made without
	user, pass *string

	host      string
	labelset  *pcp.LabelSet // context labels
	labels    string        // merged, unfiltered: the context's "labels"
	source    string
	cache     cache
	maxCached int
}

func (c *webContext) touch(now time.Time) { c.lastUse.Store(now.UnixNano()) }

func (c *webContext) expired(now time.Time) bool {
	return c.busy.Load() == 0 && now.UnixNano()-c.lastUse.Load() > int64(c.timeout)
}

// setup asks the new context's host and labels and derives its source
// identifier, as pmwebapi_new_context does.
func (c *webContext) setup(ctx context.Context) error {
	host, err := c.src.HostName(ctx)
	if err != nil {
		return err
	}
	c.host = host
	sets, err := c.src.ContextLabels(ctx)
	if err == nil && len(sets) > 0 && sets[0].NLabels > 0 {
		c.labelset = &sets[0]
	} else {
		ls, perr := hostlabels.Default(host)
		if perr != nil {
			return perr
		}
		c.labelset = ls
	}
	if j, ok := pcp.MergeLabelSets([]*pcp.LabelSet{c.labelset}, nil); ok {
		c.labels = j
	} else {
		c.labels = "{}"
	}
	c.source = webid.SourceID(c.labels).String()
	c.cache.init()
	return nil
}

// keep drops the metadata cache when it has grown past its bound.
func (c *webContext) keep() {
	if c.cache.size() > c.maxCached {
		c.cache.init()
	}
}

// close ends the PMAPI context and lets go of it and of the metadata: an
// expired context keeps only its identifier until it is forgotten, and
// under churn the contexts closed and not yet forgotten outnumber the live
// ones, so what they let go of here (a pmcd connection's buffers) is most
// of what churn holds.
func (c *webContext) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.src != nil {
		_ = c.src.Close()
		c.src = nil
	}
	c.cache = cache{}
	c.labelset = nil
	// What only a live context answers with: an expired one answers
	// with its identifier alone.
	c.host, c.labels, c.source = "", "", ""
}
