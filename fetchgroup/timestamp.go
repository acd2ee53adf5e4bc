package fetchgroup

import (
	"context"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// Timestamp is the handle of a fetch's timestamp.
type Timestamp struct {
	ts pcp.Timestamp
}

// ExtendTimestamp adds the timestamp of each fetch to g, as
// pmExtendFetchGroup_timestamp does (at full resolution, as
// pmExtendFetchGroup_timespec). A failed fetch gives the time of the
// failure.
func (g *Group) ExtendTimestamp() *Timestamp {
	t := &Timestamp{}
	g.members = append(g.members, t)
	return t
}

// Time is the timestamp of the last Fetch, in UTC; zero before the first.
func (t *Timestamp) Time() time.Time {
	if t.ts == (pcp.Timestamp{}) {
		return time.Time{}
	}
	return t.ts.Time()
}

// Stamp is the timestamp of the last Fetch as PCP carries it.
func (t *Timestamp) Stamp() pcp.Timestamp { return t.ts }

func (t *Timestamp) reset() { t.ts = pcp.Timestamp{} }
func (t *Timestamp) clear() { t.ts = pcp.Timestamp{} }

func (t *Timestamp) fill(ctx context.Context, g *Group, s *sample) { t.ts = s.ts }
