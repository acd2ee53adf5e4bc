package acct

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// rec is an acct v3 record for the tests.
type rec struct {
	flag              uint8
	version           uint8
	tty               uint16
	exit, uid, gid    uint32
	pid, ppid, btime  uint32
	etime             float32
	utime, stime, mem uint16
	io, rw, min, maj  uint16
	swaps             uint16
	comm              string
}

func (r rec) bytes() []byte {
	b := make([]byte, recordSize)
	le := binary.LittleEndian
	b[0] = r.flag
	b[1] = r.version
	if b[1] == 0 {
		b[1] = 3
	}
	le.PutUint16(b[2:], r.tty)
	le.PutUint32(b[4:], r.exit)
	le.PutUint32(b[8:], r.uid)
	le.PutUint32(b[12:], r.gid)
	le.PutUint32(b[16:], r.pid)
	le.PutUint32(b[20:], r.ppid)
	le.PutUint32(b[24:], r.btime)
	le.PutUint32(b[28:], math.Float32bits(r.etime))
	for i, v := range []uint16{r.utime, r.stime, r.mem, r.io, r.rw, r.min, r.maj, r.swaps} {
		le.PutUint16(b[32+2*i:], v)
	}
	copy(b[48:], r.comm)
	return b
}

// bed is a Source over a pacct file the test appends to, with a clock it
// sets and the kernel's accounting taken as on.
type bed struct {
	t    testing.TB
	path string
	now  time.Time
	s    *Source
	acct []string // what Acct was asked
}

func newBed(t testing.TB) *bed {
	b := &bed{t: t, path: filepath.Join(t.TempDir(), "pacct"), now: time.Unix(1_700_000_000, 0)}
	b.append(rec{pid: 1, comm: "init", btime: 1})
	b.s = New(Options{SystemFile: b.path, PrivateFile: filepath.Join(t.TempDir(), "private"),
		Now: func() time.Time { return b.now }, Check: func(*os.File) bool { return true },
		Acct: func(p string) error { b.acct = append(b.acct, p); return nil }})
	b.s.Refresh() // opens the file at its end
	return b
}

func (b *bed) append(rs ...rec) {
	f, err := os.OpenFile(b.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		b.t.Fatal(err)
	}
	defer f.Close()
	for _, r := range rs {
		if _, err := f.Write(r.bytes()); err != nil {
			b.t.Fatal(err)
		}
	}
}

func (b *bed) metric(item uint32) *pmda.Metric {
	for _, m := range b.s.metrics {
		if m.Desc.PMID.Item() == item {
			return &m
		}
	}
	b.t.Fatalf("no item %d", item)
	return nil
}

func (b *bed) fetch(item uint32, inst int32) (pcp.Atom, error) {
	return b.s.Fetch(b.metric(item), inst)
}

func names(insts []pmda.Instance) []string {
	var out []string
	for _, in := range insts {
		out = append(out, in.Name)
	}
	return out
}

func TestRecordsAsAppended(t *testing.T) {
	b := newBed(t)
	if n := len(b.s.Instances()); n != 0 {
		t.Fatalf("%d instances from records before the open", n)
	}
	end := uint32(b.now.Unix()) - 10
	b.append(
		rec{pid: 100, ppid: 1, comm: "make", btime: end - 5, etime: 500, uid: 0, gid: 0, tty: 0x8801,
			utime: 0x2001, stime: 3, mem: 1234, io: 0xffff, min: 7, flag: 0x01 | 0x10, exit: 2},
		rec{pid: 101, comm: "cc", btime: end, etime: 100},
		rec{pid: 0, comm: "zero pid", btime: end},
		rec{pid: 102, comm: "old", btime: end - 1000, etime: 0},
		rec{pid: 100, comm: "again", btime: end},
	)
	b.s.Refresh()
	if got := names(b.s.Instances()); len(got) != 2 || got[0] != "cc" || got[1] != "make" {
		t.Fatalf("instances %q, want [cc make] (latest first; pid 0, the long dead and a repeated pid left out)", got)
	}
	for _, tc := range []struct {
		item uint32
		want pcp.Atom
	}{
		{0, pcp.Atom{UL: 0x8801}}, {1, pcp.Atom{UL: 2}}, {4, pcp.Atom{UL: 100}}, {5, pcp.Atom{UL: 1}},
		{6, pcp.Atom{UL: end - 5}}, {7, pcp.Atom{F: 5}}, {8, pcp.Atom{F: 0.08}}, {9, pcp.Atom{F: 0.03}},
		{10, pcp.Atom{ULL: 1234}}, {11, pcp.Atom{ULL: 0x1fff << 21}}, {13, pcp.Atom{ULL: 7}},
		{19, pcp.Atom{UL: 1}}, {20, pcp.Atom{UL: 0}}, {21, pcp.Atom{UL: 0}}, {22, pcp.Atom{UL: 1}},
		{17, pcp.Atom{CP: "root"}}, {18, pcp.Atom{CP: "root"}}, {16, pcp.Atom{CP: "?"}},
	} {
		got, err := b.fetch(tc.item, 100)
		if err != nil || got != tc.want {
			t.Errorf("item %d: %+v, %v; want %+v", tc.item, got, err, tc.want)
		}
	}
	// Past the lifetime the values go, then the instances.
	b.now = b.now.Add(2 * time.Minute)
	b.s.Refresh()
	if _, err := b.fetch(4, 100); !errors.Is(err, pmda.ErrNoValue) {
		t.Errorf("value past the lifetime: %v", err)
	}
	b.append(rec{pid: 200, comm: "new", btime: uint32(b.now.Unix())})
	b.s.Refresh()
	if got := names(b.s.Instances()); len(got) != 1 || got[0] != "new" {
		t.Errorf("instances %q after the lifetime, want [new]", got)
	}
}

func TestCompT(t *testing.T) {
	for _, tc := range []struct {
		in   uint16
		want uint64
	}{{0, 0}, {1, 1}, {0x1fff, 0x1fff}, {0x2001, 8}, {0xe001, 1 << 21}, {0xffff, 0x1fff << 21}} {
		if got := compT(tc.in); got != tc.want {
			t.Errorf("compT(%#x) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// TestDamage: a record of another version reopens the file, dropping what
// was appended; a partial record waits for the rest.
func TestDamage(t *testing.T) {
	b := newBed(t)
	now := uint32(b.now.Unix())
	b.append(rec{pid: 10, comm: "ok", btime: now}, rec{pid: 11, comm: "v2", version: 2, btime: now}, rec{pid: 12, comm: "lost", btime: now})
	b.s.Refresh()
	// The good record before the bad one is kept, but the instances are
	// not rebuilt before the reopen, as in pmdaproc.
	if got := names(b.s.Instances()); len(got) != 0 {
		t.Fatalf("instances %q right after the reopen, want none", got)
	}
	b.s.Refresh()
	b.append(rec{pid: 13, comm: "after", btime: now})
	whole := rec{pid: 14, comm: "split", btime: now}.bytes()
	f, _ := os.OpenFile(b.path, os.O_WRONLY|os.O_APPEND, 0)
	f.Write(whole[:30])
	f.Close()
	b.s.Refresh()
	got := names(b.s.Instances())
	if len(got) != 2 || got[0] != "after" || got[1] != "ok" {
		t.Fatalf("instances %q, want [after ok]: the record after the reopen, then the one kept from before", got)
	}
	// pmdaproc counts records from the file's size at the last refresh,
	// which took in the partial record's bytes, while it reads from where
	// it stopped: the split record is read once a whole record's bytes
	// more have come.
	f, _ = os.OpenFile(b.path, os.O_WRONLY|os.O_APPEND, 0)
	f.Write(whole[30:])
	f.Close()
	b.s.Refresh()
	if got := names(b.s.Instances()); len(got) == 0 || got[0] != "after" {
		t.Fatalf("instances %q, want the split record not read yet", got)
	}
	b.append(rec{pid: 15, comm: "more", btime: now})
	b.s.Refresh()
	if got := names(b.s.Instances()); len(got) == 0 || got[0] != "split" {
		t.Fatalf("instances %q, want the record written in two parts first", got)
	}
}

// TestRingBound: at most 5000 processes are kept.
func TestRingBound(t *testing.T) {
	b := newBed(t)
	now := uint32(b.now.Unix())
	var rs []rec
	for i := range 6000 {
		rs = append(rs, rec{pid: uint32(1000 + i), comm: "p", btime: now})
	}
	b.append(rs...)
	b.s.Refresh()
	if n := len(b.s.Instances()); n != ringSize {
		t.Errorf("%d instances, want %d", n, ringSize)
	}
	if n := len(b.s.procs); n != ringSize {
		t.Errorf("%d records kept, want %d", n, ringSize)
	}
}

func store(t *testing.T, s *Source, item uint32, typ pcp.Type, v uint64) error {
	t.Helper()
	vs := &pcp.ValueSet{PMID: pcp.NewPMID(Domain, Cluster, item), NumVal: 1, ValFmt: pcp.ValInSitu,
		Values: []pcp.Value{{Inst: pcp.InstNull, LVal: int32(uint32(v))}}}
	if typ == pcp.TypeU64 {
		data := make([]byte, 8)
		binary.NativeEndian.PutUint64(data, v)
		vs.ValFmt = pcp.ValDPtr
		vs.Values[0].Block = pcp.ValueBlock{Type: pcp.TypeU64, Data: data}
	}
	return s.Store(vs)
}

func TestStore(t *testing.T) {
	b := newBed(t)
	for _, tc := range []struct {
		item uint32
		typ  pcp.Type
		v    uint64
		want pcp.Atom
		err  error
	}{
		{itemOpenRetry, pcp.TypeU32, 5, pcp.Atom{UL: 5}, nil},
		{itemCheckAcct, pcp.TypeU32, 6, pcp.Atom{UL: 6}, nil},
		{itemLifetime, pcp.TypeU32, 7, pcp.Atom{UL: 7}, nil},
		{itemSizeThresh, pcp.TypeU64, 1<<32 + 9, pcp.Atom{ULL: 9}, nil},
		{itemTimer, pcp.TypeU32, 0, pcp.Atom{UL: defTimer}, pcp.ErrPermission},
		{itemTimer, pcp.TypeU32, 30, pcp.Atom{UL: 30}, nil},
		{4, pcp.TypeU32, 1, pcp.Atom{}, pcp.ErrPermission},
	} {
		err := store(t, b.s, tc.item, tc.typ, tc.v)
		if !errors.Is(err, tc.err) && err != tc.err {
			t.Errorf("store item %d: %v, want %v", tc.item, err, tc.err)
		}
		if tc.err == nil || tc.item == itemTimer {
			if got, _ := b.fetch(tc.item, pcp.InstNull); got != tc.want {
				t.Errorf("item %d after store: %+v, want %+v", tc.item, got, tc.want)
			}
		}
	}
}

// TestPrivateAccounting: with the system file unusable and enable_acct
// set, accounting goes on into the private file, and off on Close.
func TestPrivateAccounting(t *testing.T) {
	b := newBed(t)
	os.Remove(b.path)
	b.s.Close()
	if err := store(t, b.s, itemEnable, pcp.TypeU32, 1); err != nil {
		t.Fatal(err)
	}
	// The kernel is not writing here, so the version header is absent
	// and the open fails; accounting is turned off again.
	if len(b.acct) != 2 || b.acct[0] != b.s.opts.PrivateFile || b.acct[1] != "" {
		t.Errorf("acct calls %q, want on into the private file, then off", b.acct)
	}
	if got, _ := b.fetch(itemEnable, pcp.InstNull); got.UL != 1 {
		t.Errorf("enable_acct %d", got.UL)
	}
}

// TestHelp: every metric has its own help.
func TestHelp(t *testing.T) {
	s := New(Options{})
	seen := map[string]string{}
	for _, m := range s.Metrics() {
		if m.OneLine == "" || m.Help == "" {
			t.Errorf("%s: no help", m.Name)
		}
		if other, ok := seen[m.OneLine]; ok {
			t.Errorf("%s and %s share %q", other, m.Name, m.OneLine)
		}
		seen[m.OneLine] = m.Name
	}
}
