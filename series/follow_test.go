package series

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/series/resp"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/seriestest"
	"github.com/gopcp/gopcp/pcp"
)

// growingArchive writes, as pmlogger does (metadata before the records
// needing it), an archive whose instance domain gains and loses
// instances and whose second metric first appears part way, in steps:
// step(k) writes record k. It returns the archive's base name.
type growingArchive struct {
	t     *testing.T
	w     *archive.Writer
	base  string
	t0    pcp.Timestamp
	indom *archive.InDom
	two   bool
}

var (
	growPMID1 = pcp.NewPMID(29, 0, 1)
	growPMID2 = pcp.NewPMID(29, 0, 2)
	growInDom = pcp.NewInDom(29, 1)
)

func newGrowingArchive(t *testing.T, dir string) *growingArchive {
	base := filepath.Join(dir, "grow")
	w, err := archive.Create(base, archive.WriterOptions{Hostname: "growhost", Timezone: "UTC", Zoneinfo: ":Etc/UTC"})
	if err != nil {
		t.Fatal(err)
	}
	g := &growingArchive{t: t, w: w, base: base, t0: pcp.Timestamp{Sec: 1700000000}}
	g.must(w.Start(g.t0))
	data0, meta0 := w.Offsets()
	g.must(w.PutIndex(g.t0, data0, meta0))
	g.must(w.PutDesc(pcp.Desc{PMID: growPMID1, Type: pcp.Type32, InDom: growInDom, Sem: pcp.SemInstant}, []string{"grow.insts"}))
	return g
}

func (g *growingArchive) must(err error) {
	g.t.Helper()
	if err != nil {
		g.t.Fatal(err)
	}
}

// step writes record k: instances k%7 .. k%7+2 (so the domain changes
// every record, names reused), and from record 5 a second metric.
func (g *growingArchive) step(k int) {
	ts := pcp.Timestamp{Sec: g.t0.Sec + int64(k), Nsec: 250000000}
	id := &archive.InDom{Stamp: ts}
	for i := int32(k % 7); i < int32(k%7+3); i++ {
		id.Insts = append(id.Insts, i)
		id.Names = append(id.Names, fmt.Sprintf("inst%d", i))
	}
	g.must(g.w.PutInDom(growInDom, id, false))
	if k == 5 {
		g.must(g.w.PutDesc(pcp.Desc{PMID: growPMID2, Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemCounter}, []string{"grow.total"}))
		g.two = true
	}
	r := &pcp.Result{Timestamp: ts, Sets: []pcp.ValueSet{{PMID: growPMID1, NumVal: 3, ValFmt: pcp.ValInSitu}}}
	for _, in := range id.Insts {
		r.Sets[0].Values = append(r.Sets[0].Values, pcp.Value{Inst: in, LVal: int32(k*10) + in})
	}
	if g.two {
		r.Sets = append(r.Sets, pcp.ValueSet{PMID: growPMID2, NumVal: 1, ValFmt: pcp.ValInSitu,
			Values: []pcp.Value{{Inst: -1, LVal: int32(k * 3)}}})
	}
	g.must(g.w.PutResult(r))
}

// mirror copies the archive's files into dir as a reader sees a file
// being written: the metadata up to meta bytes and the data volume up to
// data bytes (-1: all of it), so a record can be cut short or the data
// be ahead of its metadata.
func mirror(t *testing.T, base, dir string, meta, data int64) {
	t.Helper()
	for _, s := range []string{".meta", ".0", ".index"} {
		b, err := os.ReadFile(base + s)
		if err != nil {
			t.Fatal(err)
		}
		n := int64(len(b))
		switch s {
		case ".meta":
			if meta >= 0 {
				n = min(n, meta)
			}
		case ".0":
			if data >= 0 {
				n = min(n, data)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(base)+s), b[:n], 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func fileSize(t *testing.T, p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// TestFollowerMatchesLoad follows an archive while it is written, polled
// after every record with the data volume seen cut inside the record
// being written, and at times ahead of the metadata: at the end Redis
// holds what one load of the finished archive writes, key for key, and
// no record was loaded twice (no stream entry refused).
func TestFollowerMatchesLoad(t *testing.T) {
	ctx := context.Background()
	followed, loaded := redistest.Start(t), redistest.Start(t)
	g := newGrowingArchive(t, t.TempDir())
	seen := t.TempDir()
	f := NewFollower(filepath.Join(seen, "grow"), filepath.Join(seen, "grow"), LoadOptions{BatchCommands: 16}, false)
	const n = 40
	records, polls := 0, 0
	poll := func() {
		t.Helper()
		st, err := f.Poll(ctx, client(t, followed))
		if err != nil {
			t.Fatalf("poll %d: %v", polls, err)
		}
		polls++
		records += st.Records
		if st.Refused != 0 {
			t.Fatalf("poll %d: %d stream entries already in Redis: a record was loaded twice", polls, st.Refused)
		}
	}
	g.step(0)
	mirror(t, g.base, seen, -1, -1)
	for k := 1; k < n; k++ {
		metaBefore := fileSize(t, g.base+".meta")
		dataBefore := fileSize(t, g.base+".0")
		g.step(k)
		dataAfter := fileSize(t, g.base+".0")
		switch k % 3 {
		case 0: // the record half written
			mirror(t, g.base, seen, -1, dataBefore+(dataAfter-dataBefore)/2)
			poll()
		case 1: // the record written, its instance domain not yet
			mirror(t, g.base, seen, metaBefore, -1)
			poll()
		}
		mirror(t, g.base, seen, -1, -1)
		poll()
	}
	g.must(g.w.Close())
	mirror(t, g.base, seen, -1, -1)
	poll()
	if records != n {
		t.Errorf("followed %d records in %d polls, the archive has %d", records, polls, n)
	}
	want, _ := sameAsOneLoad(t, ctx, loaded, followed, filepath.Join(seen, "grow"))
	t.Logf("%d records followed in %d polls, %d keys equal to one load's", records, polls, len(want))
}

// TestFollowerFromEnd passes over the records written before the first
// poll, as PCP's pmproxy does for an archive it finds: only later ones
// reach the streams. A follower started again (pmproxy restarted) takes
// up what was written meanwhile.
func TestFollowerFromEnd(t *testing.T) {
	ctx := context.Background()
	srv := redistest.Start(t)
	c := client(t, srv)
	g := newGrowingArchive(t, t.TempDir())
	for k := 0; k < 10; k++ {
		g.step(k)
	}
	f := NewFollower(g.base, "", LoadOptions{}, true)
	st, err := f.Poll(ctx, c)
	if err != nil || st.Records != 0 {
		t.Fatalf("first poll from the end: %d records, %v; want 0, nil", st.Records, err)
	}
	for k := 10; k < 13; k++ {
		g.step(k)
	}
	if st, err = f.Poll(ctx, c); err != nil || st.Records != 3 {
		t.Fatalf("second poll: %d records, %v; want 3, nil", st.Records, err)
	}
	sids := redisDo(t, c, "SMEMBERS", "pcp:series:metric.name:"+StringID("grow.total").String()).Strings()
	if len(sids) != 1 {
		t.Fatalf("series of grow.total: %d", len(sids))
	}
	stream := "pcp:values:series:" + hexOf(sids[0])
	if n := redisDo(t, c, "XLEN", stream).Int; n != 3 {
		t.Errorf("grow.total's stream holds %d entries, want the 3 written after the first poll", n)
	}

	// pmproxy restarted: a new follower of the same archive takes up the
	// records written while none was following, the rest refused
	for k := 13; k < 17; k++ {
		g.step(k)
	}
	again := NewFollower(g.base, "", LoadOptions{}, true)
	st, err = again.Poll(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if n := redisDo(t, c, "XLEN", stream).Int; n != 7 {
		t.Errorf("after the restart grow.total's stream holds %d entries, want 7", n)
	}
	if st.Refused == 0 {
		t.Errorf("the restarted follower found none of the entries in Redis: %+v", st)
	}
	t.Logf("restarted follower: %d records read, %d entries sent, %d refused as there", st.Records, st.Values, st.Refused)
}

// TestDiscoverer scans a directory as pmproxy's discovery does: an
// archive there at the first scan is followed from its end, one created
// later from its start, one under a directory holding a "lock" file not
// until the lock goes, a removed one is dropped, and directories are
// reached through links.
func TestDiscoverer(t *testing.T) {
	ctx := context.Background()
	srv := redistest.Start(t)
	c := client(t, srv)
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "hostA"), 0o755))
	must(os.MkdirAll(filepath.Join(dir, "hostB"), 0o755))
	old := newGrowingArchive(t, filepath.Join(dir, "hostA"))
	for k := 0; k < 5; k++ {
		old.step(k)
	}
	d := NewDiscoverer(DiscoverOptions{Dir: dir, Logf: t.Logf})
	records := func(sts []LoadStats) map[string]int {
		m := map[string]int{}
		for _, s := range sts {
			m[s.Name] += s.Records
		}
		return m
	}
	if got := records(d.Scan(ctx, c)); got[old.base] != 0 || d.Followed() != 1 {
		t.Fatalf("first scan: %v, %d followed; want no records of %s, 1 followed", got, d.Followed(), old.base)
	}
	old.step(5)
	young := newGrowingArchive(t, filepath.Join(dir, "hostB"))
	for k := 0; k < 3; k++ {
		young.step(k)
	}
	got := records(d.Scan(ctx, c))
	if got[old.base] != 1 || got[young.base] != 3 || d.Followed() != 2 {
		t.Fatalf("second scan: %v, %d followed; want 1 record of the first archive and 3 of the new", got, d.Followed())
	}
	if got := d.Scan(ctx, c); len(got) != 0 {
		t.Errorf("a scan with nothing changed polled %d archives", len(got))
	}
	lock := filepath.Join(dir, "hostB", "lock")
	must(os.WriteFile(lock, nil, 0o644))
	young.step(3)
	if got := records(d.Scan(ctx, c)); got[young.base] != 0 {
		t.Errorf("locked directory: %d records loaded", got[young.base])
	}
	must(os.Remove(lock))
	if got := records(d.Scan(ctx, c)); got[young.base] != 1 {
		t.Errorf("after the lock went: %d records, want 1", got[young.base])
	}
	old.must(old.w.Close())
	for _, s := range []string{".meta", ".0", ".index"} {
		must(os.Remove(old.base + s))
	}
	d.Scan(ctx, c)
	if d.Followed() != 1 {
		t.Errorf("after an archive was removed %d are followed, want 1", d.Followed())
	}

	// a link to a directory elsewhere is followed, as PCP's discovery
	// follows it; a link looping back is walked once
	elsewhere := t.TempDir()
	linked := newGrowingArchive(t, elsewhere)
	linked.step(0)
	must(os.Symlink(elsewhere, filepath.Join(dir, "hostC")))
	must(os.Symlink(dir, filepath.Join(dir, "hostB", "loop")))
	d.Scan(ctx, c)
	if d.Followed() != 2 {
		t.Errorf("with a linked directory %d archives are followed, want 2", d.Followed())
	}
}

// TestFollowerResumesAfterRedisStopped stops Redis (with persistence)
// in the middle of a poll: the poll fails with ErrRedis, the next one
// (Redis back) goes on from the last batch Redis took, and Redis then
// holds what one load of the archive writes, key for key.
func TestFollowerResumesAfterRedisStopped(t *testing.T) {
	ctx := context.Background()
	srv := redistest.Start(t, "--appendonly", "yes", "--appendfsync", "always")
	clean := redistest.Start(t)
	g := newGrowingArchive(t, t.TempDir())
	for k := 0; k < 10; k++ {
		g.step(k)
	}
	c := resp.NewPool(srv.Addr(), resp.Options{})
	defer c.Close()
	opt := LoadOptions{BatchCommands: 8}
	f := NewFollower(g.base, "", opt, false)
	if _, err := f.Poll(ctx, c); err != nil {
		t.Fatal(err)
	}
	for k := 10; k < 30; k++ {
		g.step(k)
	}
	f.l.opt.afterBatch = func(n int) { // the loader kept since the first poll
		if n == 3 {
			srv.Stop()
		}
	}
	st, err := f.Poll(ctx, c)
	if !errors.Is(err, ErrRedis) {
		t.Fatalf("poll across a stopped Redis: %v, want ErrRedis", err)
	}
	t.Logf("poll ended after %d records: %v", st.Records, err)
	if f.l != nil {
		t.Errorf("the failed poll kept its loader: what it marked written may not be in Redis")
	}
	srv.Resume()
	st, err = f.Poll(ctx, c)
	if err != nil {
		t.Fatalf("poll resumed: %v", err)
	}
	t.Logf("resumed poll: %d records, %d values sent, %d already in Redis", st.Records, st.Values, st.Refused)
	g.must(g.w.Close())
	if _, err := Load(ctx, client(t, clean), g.base, LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	want, got := seriestest.Dump(t, client(t, clean)), seriestest.Dump(t, client(t, srv))
	for k, v := range want {
		if got[k] != v {
			t.Errorf("key %s after the resumed poll differs from one load:\n%s\nloaded:\n%s", k, clip(got[k]), clip(v))
		}
	}
	if len(want) != len(got) {
		t.Errorf("%d keys after the resumed poll, %d after one load", len(got), len(want))
	}
}

// TestDiscovererSaysErrorsOnce: an archive whose last metadata record
// stays cut short is waited for (the records that need nothing of it
// loaded) for maxCutPolls scans, then refused as libpcp refuses it:
// tried at every scan, its error logged only when it comes twice
// running, and then once. When the record is whole the rest loads.
func TestDiscovererSaysErrorsOnce(t *testing.T) {
	ctx := context.Background()
	srv := redistest.Start(t)
	c := client(t, srv)
	dir := t.TempDir()
	g := newGrowingArchive(t, t.TempDir())
	for k := 0; k < 3; k++ {
		g.step(k)
	}
	g.must(g.w.Close())
	d := NewDiscoverer(DiscoverOptions{Dir: dir, FromStart: true})
	var said []string
	d.opt.Logf = func(format string, args ...any) {
		if msg := fmt.Sprintf(format, args...); strings.Contains(msg, "Corrupted") {
			said = append(said, msg)
		}
	}
	mirror(t, g.base, dir, fileSize(t, g.base+".meta")-5, -1)
	records := 0
	for i := 1; i <= maxCutPolls+3; i++ {
		for _, st := range d.Scan(ctx, c) {
			records += st.Records
		}
		want := 0
		switch {
		case i == maxCutPolls+2:
			want = 1 // the refusal, come twice
		case i > maxCutPolls+2:
			want = 1 // and not again
		}
		if len(said) != want {
			t.Fatalf("after scan %d the error was said %d times, want %d: %q", i, len(said), want, said)
		}
	}
	if records >= 3 {
		t.Fatalf("%d records loaded while the metadata of the last was cut short", records)
	}
	mirror(t, g.base, dir, -1, -1)
	for _, st := range d.Scan(ctx, c) {
		records += st.Records
	}
	if records != 3 {
		t.Errorf("once the metadata is whole: %d records loaded in all, want 3", records)
	}
}

// sameAsOneLoad loads the archive at path into loaded in one go and
// checks that followed, where a Follower loaded it as it grew, holds the
// same keys and values; it returns both dumps.
func sameAsOneLoad(t *testing.T, ctx context.Context, loaded, followed *redistest.Server, path string) (want, got map[string]string) {
	t.Helper()
	if _, err := Load(ctx, client(t, loaded), path, LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	want, got = seriestest.Dump(t, client(t, loaded)), seriestest.Dump(t, client(t, followed))
	for k, v := range want {
		if got[k] != v {
			t.Errorf("key %s followed differs from one load:\n%s\nloaded:\n%s", k, clip(got[k]), clip(v))
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("key %s followed only", k)
		}
	}
	return want, got
}
