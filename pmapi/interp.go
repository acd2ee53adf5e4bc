package pmapi

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"sort"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

// interpolator answers fetches in ModeInterp with libpcp's rules
// (interp.c): for each instance the closest value or <mark> at or before
// the requested time (the prior) and at or after it (the next), then
//
//   - discrete metrics: the prior value, when it is a value;
//   - instantaneous metrics: the prior value, when both bounds are
//     values;
//   - counters: the straight line between the two values (integers
//     rounded), when both are values and the type is numeric
//     (pcp.ErrType otherwise), with no value after a <mark> crossed since
//     the previous fetch that returned values;
//   - strings, aggregates and events: the prior value, as above.
//
// The instances asked for are those the instance domain ever had in the
// archive (pmGetInDomArchive) that the profile admits, in libpcp's hash
// order. Discrete metrics of instance domains that once had 16 or more
// instances also have no value before an instance first appears in the
// metadata or after the instance domain drops it.
//
// The metric's values are gathered in one pass over the archives the
// first time a metric is asked for, so each fetch is a binary search.
type interpolator struct {
	c        *ArchiveContext
	start    pcp.Timestamp // the first archive's start: times are offsets from it
	end      float64       // the archive's end as last looked up (pastEnd)
	endKnown bool          // end is fixed: found once for several archives
	inLast   bool          // libpcp reads in the last archive (archivelist_cursor.go)
	marks    []float64     // the times of <mark> records, real and between archives

	metrics map[pcp.PMID]*imetric
	scanned bool
	// blocks is what is left of this fetch's result's storage for the
	// values line computes (block)
	blocks []byte
	// kept is where the histories' value blocks are copied (keepBlock)
	kept keptBlocks

	prevT   float64 // the time of the previous fetch
	hasPrev bool
	wrap    bool

	damage   *interpDamage // the first damage met, nil for none
	segments []segment     // the stretches of records between damage
	seg      int           // the segment libpcp reads in, -1 until placed
	stuck    bool          // libpcp's first read from the placing fails (place)
	// backFrom, when not NaN, is the time of the first record after a
	// placing from which reading backwards meets damage (place)
	backFrom float64
	// atEnd says reading forwards from the placing finds the end of the
	// data (an index entry out of time order, or past a volume's end,
	// put it there): going forwards libpcp then finds no next bound
	// after the first fetch
	atEnd    bool
	reach    [2]float64 // the times of the records libpcp can reach now
	seenUpTo float64    // the latest time fetched at
	hasSeen  bool
	// markWarn is a bad PCP_IGNORE_MARK_RECORDS's warning waiting for
	// the first <mark> to be read (warnAtMark); markWarned that it was
	// taken, once for the context, as libpcp's once for the process
	markWarn   string
	markWarned bool

	// lazy, when not nil, is the first walk, read only as far as the
	// fetches have needed (interp_lazy.go); pause is its hook in the
	// walk, called after each record; lazyPlaced is the placing of
	// the first fetch that looked for damage while it read
	lazy       *lazyScan
	pause      func(t float64, at spot) bool
	lazyPlaced *placed
	// from, when not nil, is where a windowed first walk started
	// instead of the archive's start, windowed the metrics it read
	// (interp_window.go)
	from     *spot
	windowed map[pcp.PMID]*imetric
	// priorsOK says priorsRead was true at priorsT for priorsIDs
	priorsOK  bool
	priorsT   float64
	priorsIDs []pcp.PMID
}

// imetric is one metric's history.
type imetric struct {
	desc   pcp.Desc
	err    pcp.Error // ErrPMIDLog when the archives lack it
	valfmt pcp.ValFmt
	insts  map[int32]*iseries
	order  []int32    // the instances in the order results list them
	series []*iseries // their histories, in that order (no map lookup a value)
	alive  map[int32][2]float64
	last   int32 // the number of values last returned, -1 for none yet
	// fmtSeen and badFmt: libpcp's interpolation takes the value
	// encoding of the first record with values of the metric, and a
	// record whose encoding does not suit the metric's type, or
	// differs from that first one, is PM_ERR_LOGREC when read (damaged
	// metadata or data): badFmt is the first such record's time
	fmtSeen bool
	badFmt  float64
	valued  timeList // the times of the records with values of it
}

// markBounds are the <mark>s nearest a fetch's time t, found once a
// fetch for all its instances: the latest at or before t (prior, when
// priorOK) and the earliest at or after it (next, when nextOK).
type markBounds struct {
	prior, next     float64
	priorOK, nextOK bool
}

func (ip *interpolator) marksAround(t float64) (mb markBounds) {
	if i := sort.Search(len(ip.marks), func(i int) bool { return ip.marks[i] > t }) - 1; i >= 0 {
		mb.prior, mb.priorOK = ip.marks[i], true
	}
	if i := sort.Search(len(ip.marks), func(i int) bool { return ip.marks[i] >= t }); i < len(ip.marks) {
		mb.next, mb.nextOK = ip.marks[i], true
	}
	return mb
}

func newInterpolator(c *ArchiveContext) *interpolator {
	ip := &interpolator{c: c, start: c.logs[0].Label.Start, metrics: map[pcp.PMID]*imetric{}, wrap: c.opts.counterWrap, seg: -1,
		reach: [2]float64{math.Inf(-1), math.Inf(1)}}
	if len(c.logs) > 1 {
		// several archives: their end, found now
		ip.end = math.Inf(-1)
		if end, err := c.End(); err == nil {
			ip.end = ip.rel(end)
		}
		ip.endKnown = true
	}
	ip.inLast = ip.placeLast(ip.rel(c.origin))
	return ip
}

// reposition forgets the previous fetch, as a SetMode does.
func (ip *interpolator) reposition() {
	ip.finish()
	if ip.from != nil {
		// a windowed walk that read to the end lacks the records
		// before its start
		ip.restart()
	}
	ip.lazyPlaced = nil
	ip.hasPrev = false
	ip.seg, ip.stuck, ip.backFrom, ip.atEnd = -1, false, math.NaN(), false
	ip.reach = [2]float64{math.Inf(-1), math.Inf(1)}
	ip.inLast = ip.placeLast(ip.rel(ip.c.origin))
	for _, m := range ip.metrics {
		m.last = -1
	}
}

func (ip *interpolator) rel(t pcp.Timestamp) float64 { return t.Sub(ip.start) }

// load gathers the histories of the metrics in want from every record.
func (ip *interpolator) load(want map[pcp.PMID]*imetric) error {
	first := !ip.scanned
	ids := make([]pcp.PMID, 0, len(want))
	for id := range want {
		ids = append(ids, id)
	}
	lazy := ip.pause != nil
	marks := ip.walk(ids, func(t float64, r *pcp.Result, mark bool) {
		if lazy && mark {
			// read lazily, a fetch needs the <mark>s read so far
			ip.marks = append(ip.marks, t)
			if n := len(ip.marks); n > 1 && ip.marks[n-2] > t {
				sort.Float64s(ip.marks)
			}
		}
		for s := range r.Sets {
			vs := &r.Sets[s]
			m := want[vs.PMID]
			if m == nil || vs.NumVal <= 0 {
				continue
			}
			m.valued.add(t)
			if !m.fmtSeen {
				m.fmtSeen = true
				if !valfmtSuits(m.desc.Type, vs.ValFmt) {
					m.badFmt = math.Min(m.badFmt, t)
				}
			} else if vs.ValFmt != m.valfmt {
				m.badFmt = math.Min(m.badFmt, t)
				continue
			}
			m.valfmt = vs.ValFmt
			for _, v := range vs.Values {
				is := m.insts[v.Inst]
				if is == nil {
					if m.desc.InDom != pcp.InDomNull {
						continue
					}
					// a singular metric's value, whatever its instance
					is = m.insts[pcp.InstNull]
					if is == nil {
						continue
					}
				}
				if len(v.Block.Data) > inlineMax || v.LVal != 0 {
					// not held in the sample itself
					v.Block.Data = ip.keepBlock(v.Block.Data)
				}
				is.add(t, v)
			}
		}
	})
	if first && !lazy {
		ignore, gap, warn := ip.c.ignoreMarks()
		if !ip.markWarned {
			ip.markWarned, ip.markWarn = true, warn
		}
		for _, mk := range marks {
			if ignore {
				if gap == 0 {
					continue
				}
				// a <mark> between records at most gap apart is ignored
				if mk.hasBefore && mk.hasAfter && mk.after-mk.before <= gap {
					continue
				}
			}
			ip.marks = append(ip.marks, mk.t)
		}
		sort.Float64s(ip.marks)
	}
	ip.scanned = true
	return nil
}

// keepBlock copies a value's block out of the reader's storage into the
// histories' chunks (keptBlocks): a block each was an allocation of
// every value kept (7,581 of a whole pmval -a over the 100 MB archive,
// three floats a record), each rounded up to its size class.
func (ip *interpolator) keepBlock(b []byte) []byte { return ip.kept.keep(b) }

// valfmtSuits is libpcp's check of a record's value encoding against the
// metric's type: 32-bit integers in the value set, floats there or in a
// block, everything else in a block.
func valfmtSuits(typ pcp.Type, f pcp.ValFmt) bool {
	switch typ {
	case pcp.Type32, pcp.TypeU32:
		return f == pcp.ValInSitu
	case pcp.TypeFloat:
		return true
	}
	return f != pcp.ValInSitu
}

// readsBadFmt reports a fetch at t that reads a record whose value
// encoding libpcp rejects: one at or before the first record at or
// after t with values of the metric, which the search for its next
// bound reads.
func (ip *interpolator) readsBadFmt(pmids []pcp.PMID, t float64) bool {
	for _, id := range pmids {
		m := ip.metrics[id]
		if m == nil || m.err != 0 || math.IsInf(m.badFmt, 1) {
			continue
		}
		i := m.valued.atOrAfter(t)
		if i == m.valued.n || m.badFmt <= *m.valued.at(i) {
			return true
		}
	}
	return false
}

// ignoreMarks reads the context's PCP_IGNORE_MARK_RECORDS setting
// (WithIgnoreMarkRecords) as libpcp reads the variable: set and empty
// ignores every <mark>, an interval those between records no further
// apart; a bad value is ignored, and warn is the warning for it, which
// libpcp gives when its reading first meets a <mark> (warnAtMark).
func (c *ArchiveContext) ignoreMarks() (ignore bool, gap float64, warn string) {
	if c.opts.ignoreMarks == nil {
		return false, 0, ""
	}
	v := *c.opts.ignoreMarks
	if v == "" {
		return true, 0, ""
	}
	d, err := ParseInterval(v)
	if err != nil {
		var ie *IntervalError
		report := err.Error() + "\n"
		if errors.As(err, &ie) {
			report = ie.Report()
		}
		return false, 0, "Warning: bad $PCP_IGNORE_MARK_RECORDS: not in pmParseInterval(3) format:\n" + report + "\n"
	}
	return true, d.Seconds(), ""
}

// warnAtMark gives ignoreMarks's warning (WithWarnings) at the fetch at
// t whose reading meets the first <mark>, as libpcp reads the setting
// only then: the search for each instance's next value reads forwards
// from t to the first record with one (to the end for an instance with
// none after t), so a fetch meets the <mark> once it lies at or before
// the furthest of those.
func (ip *interpolator) warnAtMark(pmids []pcp.PMID, t float64) {
	if ip.markWarn == "" || len(ip.marks) == 0 {
		return
	}
	first := ip.marks[0]
	reach := math.Inf(-1)
	for _, id := range pmids {
		m := ip.metrics[id]
		if m == nil || m.err != 0 {
			continue
		}
		for _, is := range m.series {
			i := is.atOrAfter(t)
			if i == is.len() {
				reach = math.Inf(1)
				break
			}
			reach = max(reach, is.time(i))
		}
	}
	if first > reach {
		return
	}
	if ip.c.opts.warn != nil {
		io.WriteString(ip.c.opts.warn, ip.markWarn)
	}
	ip.markWarn = ""
}

// metric sets up a metric's instances, not yet its history.
func (ip *interpolator) metric(id pcp.PMID) *imetric {
	m := &imetric{insts: map[int32]*iseries{}, last: -1, badFmt: math.Inf(1)}
	d, err := ip.c.LookupDesc(context.Background(), id)
	if err != nil {
		m.err = pcp.ErrPMIDLog
		return m
	}
	m.desc = d
	if d.InDom == pcp.InDomNull {
		m.insts[pcp.InstNull] = &iseries{kept: &ip.kept}
		m.order = []int32{pcp.InstNull}
		m.series = []*iseries{m.insts[pcp.InstNull]}
		return m
	}
	insts, err := ip.c.GetInDomArchive(d.InDom)
	if err != nil {
		return m
	}
	n := uint32(len(insts))
	ids := make([]int32, len(insts))
	for i, in := range insts {
		ids[i] = in.Inst
		m.insts[in.Inst] = &iseries{kept: &ip.kept}
	}
	// libpcp's hash table of n buckets, each chain newest first
	pos := make(map[int32]int, len(ids))
	for i, id := range ids {
		pos[id] = i
	}
	sort.SliceStable(ids, func(a, b int) bool {
		ka, kb := uint32(ids[a])%n, uint32(ids[b])%n
		if ka != kb {
			return ka < kb
		}
		return pos[ids[a]] > pos[ids[b]]
	})
	m.order = ids
	m.series = make([]*iseries, len(ids))
	for k, id := range ids {
		m.series[k] = m.insts[id]
	}
	m.alive = ip.lifetimes(d.InDom)
	return m
}

// lifetimes are the first and last times each instance of a big instance
// domain is in the metadata (-1 when unbounded), nil for small ones.
func (ip *interpolator) lifetimes(indom pcp.InDom) map[int32][2]float64 {
	const threshold = 16
	var hist []*archive.InDom
	for _, a := range ip.c.logs {
		a.Meta.EachInDom(func(id pcp.InDom, h []*archive.InDom) {
			if id == indom {
				hist = append(hist, h...)
			}
		})
	}
	big := false
	for _, h := range hist {
		if len(h.Insts) >= threshold {
			big = true
		}
	}
	if !big {
		return nil
	}
	out := map[int32][2]float64{}
	prior := -1.0
	for i := len(hist) - 1; i >= 0; i-- { // newest first
		t := ip.rel(hist[i].Stamp)
		for _, inst := range hist[i].Insts {
			life, ok := out[inst]
			if !ok {
				life = [2]float64{t, prior}
			} else {
				life[0] = t
			}
			out[inst] = life
		}
		prior = t
	}
	return out
}

// bound is one side of an instance's bracket: a value, a <mark>, or
// nothing.
type bound struct {
	t    float64
	mark bool
	ok   bool
	v    pcp.Value
}

func (ip *interpolator) prior(is *iseries, t float64, mb *markBounds) bound {
	var b bound
	if i := is.after(t) - 1; i >= 0 && is.time(i) >= ip.reach[0] {
		b = bound{t: is.time(i), ok: true, v: is.value(i)}
	}
	if mb.priorOK && mb.prior >= ip.reach[0] {
		if !b.ok || mb.prior >= b.t {
			b = bound{t: mb.prior, ok: true, mark: true}
		}
	}
	return b
}

func (ip *interpolator) next(is *iseries, t float64, mb *markBounds) bound {
	var b bound
	limit := ip.reach[1]
	if ip.atEnd && ip.hasPrev {
		// libpcp reads forwards from the end of the data: its first
		// fetch's search back from there reads every record down to
		// t, finding both bounds; for the later ones only a record
		// exactly at t is a next bound
		limit = t
	}
	i := is.after(t)
	for i > 0 && is.time(i-1) >= t {
		i-- // the first at or after t
	}
	if i < is.len() && is.time(i) <= limit {
		b = bound{t: is.time(i), ok: true, v: is.value(i)}
	}
	if mb.nextOK && mb.next <= limit {
		if !b.ok || mb.next <= b.t {
			b = bound{t: mb.next, ok: true, mark: true}
		}
	}
	return b
}

// markBetween reports a <mark> crossed going from the previous fetch's
// time to t.
func (ip *interpolator) markBetween(t float64) bool {
	if !ip.hasPrev {
		return false
	}
	lo, hi := ip.prevT, t
	if lo > hi {
		lo, hi = hi, lo
	}
	i := sort.Search(len(ip.marks), func(i int) bool { return ip.marks[i] > lo })
	return i < len(ip.marks) && ip.marks[i] <= hi
}

func (ip *interpolator) fetch(pmids []pcp.PMID, r *pcp.Result) error {
	c := ip.c
	t := ip.rel(c.origin)
	if ip.eol(t) {
		return pcp.ErrEOL
	}
	ip.inLast = ip.fetchedLast(t)
	// made only when a metric is new: a map made at every fetch was
	// most of what an interpolating replay allocated
	var want map[pcp.PMID]*imetric
	for _, id := range pmids {
		if id == pcp.PMIDNull {
			continue
		}
		if _, ok := ip.metrics[id]; !ok {
			m := ip.metric(id)
			ip.metrics[id] = m
			if m.err == 0 {
				if want == nil {
					want = map[pcp.PMID]*imetric{}
				}
				want[id] = m
			}
		}
	}
	switch {
	case ip.lazy == nil && ip.from != nil && len(want) > 0:
		// a metric new after a windowed walk read to the end
		ip.restart()
		if err := ip.load(want); err != nil {
			return err
		}
	case ip.lazy != nil && len(want) > 0:
		// a metric new to a lazy walk: read as before, after it
		ip.finish()
		if err := ip.load(want); err != nil {
			return err
		}
	case ip.lazy != nil:
	case !ip.scanned && len(want) > 0 && ip.lazyOK():
		if ip.seg < 0 && ip.lazyPlaced == nil {
			pl := ip.placing(c.origin, false)
			ip.lazyPlaced = &pl
			ip.from = ip.windowFrom(c.origin, &pl, 0)
		}
		ip.startLazy(want)
	case len(want) > 0 || !ip.scanned:
		if err := ip.load(want); err != nil {
			return err
		}
	}
	ip.cover(pmids, t)
	for ip.from != nil && !ip.priorsRead(pmids, t) {
		ip.widen()
		ip.cover(pmids, t)
	}
	if ip.readsBadFmt(pmids, t) {
		return pcp.ErrLogRec
	}
	ip.placeLazy()
	if ip.pastDamage(pmids, t) {
		if ip.damage == nil {
			return pcp.ErrLogRec
		}
		return ip.damage.err
	}
	ip.warnAtMark(pmids, t)
	seenMark := ip.markBetween(t)
	mb := ip.marksAround(t)

	r.Timestamp = c.origin
	r.Sets = growSets(r.Sets, len(pmids))
	ip.blocks = r.Arena(ip.blockRoom(pmids))
	for j, id := range pmids {
		out := &r.Sets[j]
		*out = pcp.ValueSet{PMID: id, Values: out.Values[:0]}
		if id == pcp.PMIDNull {
			continue
		}
		m := ip.metrics[id]
		if m.err != 0 {
			out.NumVal = int32(m.err)
			continue
		}
		out.ValFmt = m.valfmt
		typeErr := false
		for k, inst := range m.order {
			if m.desc.InDom != pcp.InDomNull && !c.profile.Admits(m.desc.InDom, inst) {
				continue
			}
			v, ok, terr := ip.value(m, m.series[k], inst, t, seenMark, &mb)
			if terr {
				typeErr = true
			}
			if ok {
				v.Inst = inst
				out.Values = append(out.Values, v)
			}
		}
		out.NumVal = int32(len(out.Values))
		if typeErr {
			out.NumVal = int32(pcp.ErrType)
			out.Values = out.Values[:0]
		}
		if len(out.Values) > 0 && m.valfmt != pcp.ValInSitu {
			out.ValFmt = pcp.ValDPtr
		}
		m.last = out.NumVal
	}
	ip.prevT, ip.hasPrev = t, true
	if !ip.hasSeen || t > ip.seenUpTo {
		ip.seenUpTo, ip.hasSeen = t, true
	}
	return nil
}

// value is one instance's value at t; typeErr reports a counter of a
// type that cannot be interpolated.
func (ip *interpolator) value(m *imetric, is *iseries, inst int32, t float64, seenMark bool, mb *markBounds) (v pcp.Value, ok, typeErr bool) {
	lo, hi := ip.prior(is, t, mb), ip.next(is, t, mb)
	sem := m.desc.Sem
	if sem == pcp.SemDiscrete {
		if !lo.ok || lo.mark {
			return v, false, false
		}
		if life, ok := m.alive[inst]; ok {
			if life[0] > t || (life[1] >= 0 && t > life[1]) {
				return v, false, false
			}
		}
		return lo.v, true, false
	}
	if !lo.ok || lo.mark || !hi.ok || hi.mark {
		return v, false, false
	}
	if sem == pcp.SemCounter {
		switch m.desc.Type {
		case pcp.Type32, pcp.TypeU32, pcp.Type64, pcp.TypeU64, pcp.TypeFloat, pcp.TypeDouble:
		default:
			return v, false, true
		}
		if seenMark && m.last > 0 {
			return v, false, false
		}
	}
	if lo.t == t {
		return lo.v, true, false
	}
	if hi.t == t {
		return hi.v, true, false
	}
	if sem == pcp.SemInstant {
		return lo.v, true, false
	}
	// a counter, or semantics no metric has (damaged metadata), which
	// libpcp interpolates as a counter's without a counter's checks
	return ip.line(m, lo, hi, t), true, false
}

// blockRoom is the most storage the values line computes for one fetch
// of pmids can take: every instance of each metric whose values are in
// blocks, at 8 bytes.
func (ip *interpolator) blockRoom(pmids []pcp.PMID) int {
	n := 0
	for _, id := range pmids {
		m := ip.metrics[id]
		if m == nil || m.err != 0 {
			continue
		}
		switch m.desc.Type {
		case pcp.TypeFloat, pcp.Type64, pcp.TypeU64, pcp.TypeDouble:
			n += 8 * len(m.order)
		}
	}
	return n
}

// block is n bytes of the fetch's result for a computed value's block:
// the result's arena, which a fetch into the same result reuses, so that
// interpolating allocates nothing a value.
func (ip *interpolator) block(n int) []byte {
	if len(ip.blocks) < n {
		return make([]byte, n)
	}
	d := ip.blocks[:n:n]
	ip.blocks = ip.blocks[n:]
	return d
}

// line is a counter's value on the straight line between two values, as
// libpcp computes it type by type.
func (ip *interpolator) line(m *imetric, lo, hi bound, t float64) pcp.Value {
	span := hi.t - lo.t
	dt := t - lo.t
	switch m.desc.Type {
	case pcp.Type32:
		a, b := lo.v.LVal, hi.v.LVal
		if b >= a || !ip.wrap {
			// the difference wraps as int arithmetic does in C
			return pcp.Value{LVal: pcp.CastInt32(0.5 + float64(a) + dt*float64(b-a)/span)}
		}
		// libpcp adds the prior value to the next slot of the result
		// rather than this one (overwritten, or past the set's end), so a
		// wrapped int32 counter reads as the share of the distance alone
		d := int32(pcp.WrapDistance32(uint32(a), uint32(b)))
		return pcp.Value{LVal: pcp.CastInt32(0.5 + dt*float64(d)/span)}
	case pcp.TypeU32:
		a, b := uint32(lo.v.LVal), uint32(hi.v.LVal)
		var x uint32
		switch {
		case b >= a:
			x = pcp.CastUint32(0.5 + float64(a) + dt*float64(b-a)/span)
		case ip.wrap:
			x = pcp.CastUint32(0.5+dt*float64(pcp.WrapDistance32(a, b))/span) + a
		default:
			x = pcp.CastUint32(0.5 + float64(a) - dt*float64(a-b)/span)
		}
		return pcp.Value{LVal: int32(x)}
	case pcp.TypeFloat:
		if m.valfmt == pcp.ValInSitu {
			a, b := math.Float32frombits(uint32(lo.v.LVal)), math.Float32frombits(uint32(hi.v.LVal))
			f := float32(float64(a) + dt*float64(b-a)/span)
			return pcp.Value{LVal: int32(math.Float32bits(f))}
		}
		a, b := math.Float32frombits(binary.NativeEndian.Uint32(lo.v.Block.Data)), math.Float32frombits(binary.NativeEndian.Uint32(hi.v.Block.Data))
		f := float32(float64(a) + dt*float64(b-a)/span)
		d := ip.block(4)
		binary.NativeEndian.PutUint32(d, math.Float32bits(f))
		return pcp.Value{Block: pcp.ValueBlock{Type: pcp.TypeFloat, Data: d}}
	case pcp.Type64:
		a, b := int64(binary.NativeEndian.Uint64(lo.v.Block.Data)), int64(binary.NativeEndian.Uint64(hi.v.Block.Data))
		diff := b - a
		if b < a && ip.wrap {
			diff = int64(pcp.WrapDistance64(uint64(a), uint64(b)))
		}
		x := pcp.CastInt64(0.5 + float64(a) + dt*float64(diff)/span)
		d := ip.block(8)
		binary.NativeEndian.PutUint64(d, uint64(x))
		return pcp.Value{Block: pcp.ValueBlock{Type: pcp.Type64, Data: d}}
	case pcp.TypeU64:
		// libpcp holds the two values in signed variables: they compare
		// and convert to double as int64; their difference, an int64
		// that cannot overflow as far as the compiler knows, converts
		// as one too
		a, b := int64(binary.NativeEndian.Uint64(lo.v.Block.Data)), int64(binary.NativeEndian.Uint64(hi.v.Block.Data))
		var x uint64
		switch {
		case b >= a:
			x = pcp.CastUint64(0.5 + float64(a) + dt*float64(b-a)/span)
		case ip.wrap:
			x = pcp.CastUint64(0.5 + float64(a) + dt*float64(pcp.WrapDistance64(uint64(a), uint64(b)))/span)
		default:
			x = pcp.CastUint64(0.5 + float64(a) - dt*float64(a-b)/span)
		}
		d := ip.block(8)
		binary.NativeEndian.PutUint64(d, x)
		return pcp.Value{Block: pcp.ValueBlock{Type: pcp.TypeU64, Data: d}}
	case pcp.TypeDouble:
		a, b := math.Float64frombits(binary.NativeEndian.Uint64(lo.v.Block.Data)), math.Float64frombits(binary.NativeEndian.Uint64(hi.v.Block.Data))
		x := a + dt*(b-a)/span
		d := ip.block(8)
		binary.NativeEndian.PutUint64(d, math.Float64bits(x))
		return pcp.Value{Block: pcp.ValueBlock{Type: pcp.TypeDouble, Data: d}}
	}
	return lo.v
}
