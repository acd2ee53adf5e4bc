package pmapi

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

// SetMode is pmSetMode for an archive context: the context's time
// becomes when, and fetches go on in mode from there. In ModeInterp each
// fetch returns values at the current time and then moves it by delta
// (backwards for a negative delta); in ModeForw and ModeBack each fetch
// returns the next record at or after (before) the current time and
// delta is unused. Another mode is pcp.ErrMode.
func (c *ArchiveContext) SetMode(mode Mode, when pcp.Timestamp, delta time.Duration) error {
	switch mode {
	case ModeInterp, ModeForw, ModeBack:
	default:
		return fmt.Errorf("pmapi: SetMode %d: %w", int(mode), pcp.ErrMode)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return fmt.Errorf("pmapi: SetMode: %w", pcp.ErrNoContext)
	}
	c.mode, c.origin, c.delta = mode, when, delta
	if mode != ModeInterp {
		c.position(mode, when)
	} else if c.interp != nil {
		c.interp.reposition()
	}
	return nil
}

// Mode is the context's current mode and interpolation step.
func (c *ArchiveContext) Mode() (Mode, time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mode, c.delta
}

// position puts the reader in the archive that holds t for a walk in
// direction mode, as libpcp chooses among the archives of a context.
func (c *ArchiveContext) position(mode Mode, t pcp.Timestamp) {
	n := 0
	if len(c.logs) > 1 {
		if mode == ModeBack {
			n = 0
			for i, a := range c.logs {
				if a.Label.Start.Sub(t) <= 0 {
					n = i
				}
			}
		} else {
			n = len(c.logs) - 1
			for i, a := range c.logs {
				if end, err := a.End(); err == nil && end.Sub(t) >= 0 {
					n = i
					break
				}
			}
		}
	}
	c.switchTo(n)
	// When the index cannot place the reader (its entry names a volume
	// that is missing), libpcp's pmSetMode ignores the failure and the
	// fetches read on from where the reader was: Seek leaves it there.
	_ = c.rd.Seek(readerMode(mode), t)
}

func readerMode(m Mode) archive.Mode {
	if m == ModeBack {
		return archive.Backward
	}
	return archive.Forward
}

// switchTo makes archive n the one the reader reads.
func (c *ArchiveContext) switchTo(n int) {
	if n == c.cur && c.rd != nil {
		return
	}
	if c.rd != nil {
		c.rd.Close()
	}
	c.cur = n
	c.rd = c.logs[n].NewReader()
}

// readRecord reads the next record in direction mode into r, moving to
// the next archive of the context at the end of one with a <mark> record
// between them, as libpcp does; pcp.ErrEOL past the last. With selected,
// only the value sets of c.want are decoded.
func (c *ArchiveContext) readRecord(mode Mode, r *pcp.Result, selected bool) error {
	if c.rd == nil {
		c.rd = c.logs[c.cur].NewReader()
	}
	if selected {
		c.rd.SelectPMIDs(c.want)
	} else {
		c.rd.Select(nil)
	}
	err := c.rd.Fetch(r)
	c.mark = c.rd.Mark()
	if !errors.Is(err, pcp.ErrEOL) || len(c.logs) == 1 {
		return err
	}
	c.mark = true
	next := c.cur + 1
	if mode == ModeBack {
		next = c.cur - 1
	}
	if next < 0 || next >= len(c.logs) {
		return err
	}
	// the <mark> one millisecond beyond the archive left behind
	var stamp pcp.Timestamp
	if mode == ModeBack {
		stamp = addNsec(c.logs[c.cur].Label.Start, -1000000)
	} else {
		end, e := c.logs[c.cur].End()
		if e != nil {
			return e
		}
		stamp = addNsec(end, 1000000)
	}
	c.switchTo(next)
	if mode == ModeBack {
		end, _ := c.logs[next].End()
		c.rd.SetMode(archive.Backward, end)
	} else {
		c.rd.SetMode(archive.Forward, c.logs[next].Label.Start)
	}
	r.Timestamp = stamp
	r.Sets = r.Sets[:0]
	return nil
}

func addNsec(t pcp.Timestamp, ns int64) pcp.Timestamp {
	total := int64(t.Nsec) + ns
	sec := t.Sec + total/1e9
	total %= 1e9
	if total < 0 {
		total += 1e9
		sec--
	}
	return pcp.Timestamp{Sec: sec, Nsec: int32(total)}
}

// FetchArchive is pmFetchArchive: the next record in the context's
// direction as the archive holds it, every metric and instance of it
// (the profile does not apply), <mark> records included as results with
// no value sets. It is for ModeForw and ModeBack (pcp.ErrMode in
// ModeInterp); pcp.ErrEOL past the end.
func (c *ArchiveContext) FetchArchive(ctx context.Context, r *pcp.Result) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return fmt.Errorf("pmapi: FetchArchive: %w", pcp.ErrNoContext)
	}
	if c.mode == ModeInterp {
		return fmt.Errorf("pmapi: FetchArchive: %w", pcp.ErrMode)
	}
	if err := c.readRecord(c.mode, r, false); err != nil {
		return fmt.Errorf("pmapi: FetchArchive: %w", err)
	}
	c.origin = r.Timestamp
	return nil
}

// Fetch returns the values of pmids: in ModeInterp those at the current
// time, interpolated as libpcp interpolates, after which the time moves
// on by the step; in ModeForw or ModeBack those of the next record that
// holds any of them (skipping <mark> records), the time becoming the
// record's. Metrics the archive does not describe have
// pcp.ErrPMIDLog as their set's NumVal in ModeInterp. Past the end of the
// archive (or before its start, backwards) the error is pcp.ErrEOL.
//
// As a host context's Fetch, it reuses r's storage: the blocks of values
// it computes (an interpolated 64-bit or floating counter) are in r's
// arena, so they hold until the next fetch into r.
func (c *ArchiveContext) Fetch(ctx context.Context, pmids []pcp.PMID, r *pcp.Result) (StateChange, error) {
	if len(pmids) == 0 {
		return 0, fmt.Errorf("pmapi: Fetch: %w", pcp.ErrTooSmall)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return 0, fmt.Errorf("pmapi: Fetch: %w", pcp.ErrNoContext)
	}
	var err error
	if c.mode == ModeInterp {
		if c.interp == nil {
			c.interp = newInterpolator(c)
		}
		// libpcp moves the time on only after a fetch that worked or
		// found the time outside the archive (PM_ERR_EOL, before its
		// start or past its end): a fetch that meets damage is tried at
		// the same time again by the next
		if err = c.interp.fetch(pmids, r); err == nil || errors.Is(err, pcp.ErrEOL) {
			c.origin = step(c.origin, c.delta)
		}
	} else {
		err = c.fetchRecord(pmids, r)
	}
	if err != nil {
		return 0, fmt.Errorf("pmapi: Fetch: %w", err)
	}
	return 0, nil
}

// fetchRecord is a fetch in ModeForw or ModeBack.
func (c *ArchiveContext) fetchRecord(pmids []pcp.PMID, r *pcp.Result) error {
	rec := &c.scratch
	// Only the asked metrics' value sets are decoded (pminfo -f asks
	// for one metric a fetch, and decoded every set of the record for
	// it); whether the record is a <mark> the reader tells.
	c.want = append(c.want[:0], pmids...)
	for {
		if err := c.readRecord(c.mode, rec, true); err != nil {
			return err
		}
		c.origin = rec.Timestamp
		if c.mark {
			continue // a <mark>: pmFetch looks further
		}
		// a fetch of only derived metrics takes any record; PM_ID_NULL
		// (a name not found) is not derived for libpcp, so a fetch of
		// it alone reads on to the end (PM_ERR_EOL)
		found := true
		for _, id := range pmids {
			if !isDerivedPMID(id) {
				found = false
			}
		}
		for _, id := range pmids {
			for i := range rec.Sets {
				if rec.Sets[i].PMID == id {
					found = true
					break
				}
			}
		}
		if found {
			break
		}
	}
	r.Timestamp = rec.Timestamp
	r.Sets = growSets(r.Sets, len(pmids))
	// The values taken, and their blocks, are copied into r's own
	// storage, sized first: a slice of values a set and a copy of each
	// block were a third of what pminfo -f allocated over a QA archive
	// of process metrics (one fetch a metric).
	picks := c.picks[:0]
	nvals, nbytes := 0, 0
	for _, id := range pmids {
		pick := setPick{set: -1, indom: pcp.InDomNull}
		for i := range rec.Sets {
			in := &rec.Sets[i]
			if in.PMID != id {
				continue
			}
			pick.set = i
			if in.NumVal <= 0 {
				break
			}
			if d, err := c.logs[c.cur].Meta.Desc(id); err == nil {
				pick.indom = d.InDom
			}
			for _, v := range in.Values {
				if pick.indom == pcp.InDomNull || c.profile.Admits(pick.indom, v.Inst) {
					nvals++
					nbytes += len(v.Block.Data)
				}
			}
			break
		}
		picks = append(picks, pick)
	}
	c.picks = picks
	vals, arena := r.ValueArena(nvals), r.Arena(nbytes)
	for j, id := range pmids {
		out := &r.Sets[j]
		*out = pcp.ValueSet{PMID: id}
		pick := picks[j]
		if pick.set < 0 {
			continue
		}
		in := &rec.Sets[pick.set]
		out.NumVal, out.ValFmt = in.NumVal, in.ValFmt
		if in.NumVal <= 0 {
			continue
		}
		n := 0
		for _, v := range in.Values {
			if pick.indom != pcp.InDomNull && !c.profile.Admits(pick.indom, v.Inst) {
				continue
			}
			if len(v.Block.Data) > 0 {
				k := copy(arena, v.Block.Data)
				v.Block.Data, arena = arena[:k:k], arena[k:]
			} else {
				v.Block.Data = nil
			}
			vals[n] = v
			n++
		}
		out.Values, vals = vals[:n:n], vals[n:]
		out.NumVal = int32(n)
	}
	return nil
}

// setPick is the set of a record a fetch takes for one metric (-1 for
// none) and the metric's instance domain.
type setPick struct {
	set   int
	indom pcp.InDom
}

func growSets(s []pcp.ValueSet, n int) []pcp.ValueSet {
	if cap(s) >= n {
		return s[:n]
	}
	return append(s[:cap(s)], make([]pcp.ValueSet, n-cap(s))...)
}

// isDerivedPMID is libpcp's IS_DERIVED: a PMID of the dynamic domain
// (511) that derived and anonymous metrics are given.
func isDerivedPMID(id pcp.PMID) bool {
	return id.Domain() == 511 && id.Cluster()&2048 == 0 && id.Item() != 0
}

// step moves an interpolation's time on by delta as libpcp does, which
// leaves a nanosecond count of exactly one second unnormalized (tools
// then print such a time as ".1000").
func step(t pcp.Timestamp, delta time.Duration) pcp.Timestamp {
	sec := t.Sec + int64(delta/time.Second)
	nsec := int64(t.Nsec) + int64(delta%time.Second)
	for nsec > 1e9 {
		sec++
		nsec -= 1e9
	}
	for nsec < 0 {
		sec--
		nsec += 1e9
	}
	return pcp.Timestamp{Sec: sec, Nsec: int32(nsec)}
}
