package series

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/gopcp/gopcp/series/resp"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

// position is a place in an archive's data: the volume and byte offset
// of the next record to load.
type position struct {
	vol int
	off int64
}

// maxWaits is how many polls a record waits for the metadata it needs
// (a descriptor, an instance) before it is loaded without it. pmlogger
// writes the metadata first, but the data volume can be read between the
// two writes; metadata that never comes (a damaged archive) must not stop
// the following for good.
const maxWaits = 3

// Follower loads the records an archive gains while pmlogger writes it,
// as PCP's pmproxy does for the archives it discovers: each Poll reads
// the archive as it then is and loads the complete records after the
// last one loaded. What has been written (metadata, instances) is kept
// between polls, so memory is the archive's metadata plus two batches.
// A Poll that fails (Redis down) is resumed by the next from the last
// batch Redis took; entries sent twice are refused by the streams.
type Follower struct {
	path, name string
	opt        LoadOptions
	fromEnd    bool

	l      *loader
	at     position
	placed bool
	waits  int

	meta     *metaTail // the metadata read so far: where its complete records end
	cutPolls int       // polls running that found the metadata's last record cut
	// the metadata loaded at the last poll and the length it was loaded
	// from: taken again while no record has been completed since
	lastMeta   *archive.Meta
	lastLength int64
	lastGen    int
	decodes    int // metadata loads (for tests)
}

// NewFollower follows the archive at path (its base name or any of its
// files). With fromEnd the records already written are passed over, as
// PCP's pmproxy passes over those of an archive it finds: only records
// written after the first Poll are loaded; but an archive Redis already
// has series of (followed before a restart) is read from its start, so
// that the records written meanwhile are loaded and the rest refused as
// already there. name is the context name the series get
// (ContextName(path) when empty).
func NewFollower(path, name string, opt LoadOptions, fromEnd bool) *Follower {
	opt.defaults()
	if name == "" {
		name = ContextName(path)
	}
	return &Follower{path: path, name: name, opt: opt, fromEnd: fromEnd}
}

// Name is the context name the follower's series are loaded under.
func (f *Follower) Name() string { return f.name }

// Poll loads the records written since the last Poll. An archive that
// cannot be opened yet (pmlogger has only just created it) is an error
// the caller may retry.
func (f *Follower) Poll(ctx context.Context, c resp.Client) (LoadStats, error) {
	a, err := f.openArchive()
	if err != nil {
		return LoadStats{}, err
	}
	defer a.Close()
	if !f.placed {
		if err := CheckSchema(ctx, c); err != nil {
			return LoadStats{}, err
		}
		fromEnd := f.fromEnd
		if fromEnd {
			// an archive followed before (pmproxy restarted) is taken
			// up from its start: what Redis has is refused, what was
			// written meanwhile goes in
			r, err := c.Do(ctx, "SCARD", "pcp:series:context.name:"+StringID(f.name).String())
			if err != nil {
				return LoadStats{}, fmt.Errorf("%w: %v", ErrRedis, err)
			}
			n, _ := r.Integer()
			fromEnd = n == 0
		}
		f.at = endOf(a, fromEnd)
		f.placed = true
	}
	fresh := f.l == nil
	if fresh {
		f.l = newLoader(a, f.name, f.opt)
		f.l.follow = true
	} else {
		f.l.a = a
	}
	l := f.l
	l.stats = LoadStats{Name: l.name, Source: l.source}
	l.cur.pos = f.at
	l.sent = func(b *batch) { f.at = b.pos }
	st, err := l.run(ctx, c, func(ctx context.Context, out chan<- *batch) error {
		return f.read(ctx, out, fresh)
	})
	l.a = nil
	if err != nil {
		// what was written is forgotten: the next Poll sends the
		// metadata again (idempotent) from the last batch Redis took
		f.l = nil
	}
	return st, err
}

// pending says the last Poll left something for a later one though no
// file may change: a record waiting for its metadata, or metadata whose
// last record was cut short.
func (f *Follower) pending() bool { return f.waits > 0 || f.cutPolls > 0 }

// openArchive opens the archive with its metadata up to the last complete
// record: a record pmlogger is still writing is left for a later poll
// (libpcp refuses a metadata file that ends in one), for maxCutPolls
// polls, after which the archive is opened whole and refused as libpcp
// refuses it.
func (f *Follower) openArchive() (*archive.Archive, error) {
	opt := archive.Options{}
	if f.meta == nil {
		if meta, ok := metaPath(f.path); ok {
			f.meta = &metaTail{path: meta}
		}
	}
	// a compressed metadata file (no plain one found) is read whole
	if f.meta != nil {
		complete, size, err := f.meta.scan()
		if err != nil {
			f.meta = nil // looked for afresh: the archive may be coming or going
			return nil, fmt.Errorf("cannot open archive %q: %w", f.path, err)
		}
		if complete < size {
			f.cutPolls++
			if f.cutPolls <= maxCutPolls && complete > 0 {
				opt.MetaLength = complete
			}
		} else {
			f.cutPolls = 0
		}
		if opt.MetaLength == 0 {
			complete = size // read whole
		}
		if f.lastMeta != nil && complete == f.lastLength && f.meta.gen == f.lastGen {
			opt.Meta = f.lastMeta // no record added: nothing to decode
		}
		f.lastMeta, f.lastLength, f.lastGen = nil, complete, f.meta.gen
	}
	if opt.Meta == nil {
		f.decodes++
	}
	a, err := archive.Open(f.path, opt)
	if err != nil {
		return nil, fmt.Errorf("cannot open archive %q: %w", f.path, err)
	}
	if f.meta != nil {
		f.lastMeta = a.Meta
	}
	return a, nil
}

// metaPath is the plain metadata file of the archive named by path (its
// base name, which may hold dots, or any of its files).
func metaPath(path string) (string, bool) {
	cands := []string{path + ".meta"}
	if base, _, ok := archive.SplitName(path); ok {
		cands = append(cands, base+".meta")
	}
	for _, p := range cands {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, true
		}
	}
	return "", false
}

// endOf is where following starts: the archive's first record, or past
// its last complete one.
func endOf(a *archive.Archive, fromEnd bool) position {
	r := a.NewReader()
	defer r.Close()
	vol, off := r.Position()
	p := position{vol, off}
	if !fromEnd {
		return p
	}
	var res pcp.Result
	for r.Next(&res) == nil {
		vol, off = r.Position()
		p = position{vol, off}
	}
	return p
}

// read loads the complete records from f.at on. It stops at the end of
// the data, at a record cut short (pmlogger is writing it), or at a
// record whose metadata has not been read yet.
func (f *Follower) read(ctx context.Context, out chan<- *batch, fresh bool) error {
	l := f.l
	if fresh {
		l.writeSource()
	}
	r := l.a.NewReader()
	defer r.Close()
	_, first := r.Position() // where a volume's records begin
	at := f.at
	if at.vol < l.a.MinVol { // volumes removed under us
		at = position{l.a.MinVol, first}
	}
	if err := r.ReadFrom(archive.Forward, at.vol, at.off); err != nil {
		return fmt.Errorf("%s: volume %d: %w", l.name, at.vol, err)
	}
	var res pcp.Result
	for {
		err := r.Next(&res)
		if errors.Is(err, pcp.ErrEOL) {
			break
		}
		if err != nil {
			vol, _ := r.Position()
			if errors.Is(err, pcp.ErrLogRec) && vol < l.a.MaxVol {
				// damage in a volume pmlogger has left: go on in the next
				if err := r.ReadFrom(archive.Forward, vol+1, first); err != nil {
					return fmt.Errorf("%s: volume %d: %w", l.name, vol+1, err)
				}
				continue
			}
			if errors.Is(err, pcp.ErrLogRec) {
				break // the record being written: the next poll has it
			}
			return fmt.Errorf("%s: fetch failed: %w", l.name, err)
		}
		if !l.complete(&res) && (f.cutPolls > 0 || f.waits < maxWaits) {
			// while a metadata record is cut short, what the record
			// lacks is likely in it: wait (bounded by maxCutPolls)
			if f.cutPolls == 0 {
				f.waits++
			}
			break
		}
		f.waits = 0
		l.stats.Records++
		l.record(&res)
		vol, off := r.Position()
		l.cur.pos = position{vol, off}
		if len(l.cur.cmds) >= l.opt.BatchCommands {
			if err := l.flush(ctx, out); err != nil {
				return err
			}
		}
	}
	return l.flush(ctx, out)
}

// complete reports whether the metadata read holds what a record needs:
// the descriptors and names of its metrics and the instances of its
// values. The data volume may have been read after the metadata was.
func (l *loader) complete(res *pcp.Result) bool {
	for i := range res.Sets {
		vs := &res.Sets[i]
		if vs.NumVal == 0 {
			continue
		}
		var desc pcp.Desc
		if m := l.metrics[vs.PMID]; m != nil {
			if m.skip {
				continue
			}
			desc = m.desc
		} else {
			d, err := l.a.Meta.Desc(vs.PMID)
			if err != nil {
				return false
			}
			if names, err := l.a.Meta.Names(vs.PMID); err != nil || len(names) == 0 {
				return false
			}
			desc = d
		}
		if vs.NumVal < 0 || desc.InDom == pcp.InDomNull {
			continue
		}
		rec, err := l.a.Meta.InDomAt(desc.InDom, res.Timestamp)
		if err != nil {
			return false
		}
		for _, v := range vs.Values {
			if _, ok := rec.Find(v.Inst); !ok {
				return false
			}
		}
	}
	return true
}
