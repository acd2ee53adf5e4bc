package series

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/pcp"
)

// longArchive writes an archive of one metric with 20 instances over n
// records: metadata fixed, values growing with n.
func longArchive(t *testing.T, n int) string {
	base := filepath.Join(t.TempDir(), "long")
	w, err := archive.Create(base, archive.WriterOptions{Hostname: "longhost", Timezone: "UTC", Zoneinfo: ":Etc/UTC"})
	if err != nil {
		t.Fatal(err)
	}
	pmid, indom := pcp.NewPMID(29, 0, 2), pcp.NewInDom(29, 1)
	t0 := pcp.Timestamp{Sec: 1700000000}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Start(t0))
	data0, meta0 := w.Offsets()
	must(w.PutDesc(pcp.Desc{PMID: pmid, Type: pcp.Type32, InDom: indom, Sem: pcp.SemInstant}, []string{"long.metric"}))
	id := &archive.InDom{Stamp: t0}
	for i := int32(0); i < 20; i++ {
		id.Insts = append(id.Insts, i)
		id.Names = append(id.Names, "inst"+string(rune('a'+i)))
	}
	must(w.PutInDom(indom, id, false))
	must(w.PutIndex(t0, data0, meta0))
	r := &pcp.Result{Sets: []pcp.ValueSet{{PMID: pmid, NumVal: 20, ValFmt: pcp.ValInSitu}}}
	for i := 0; i < 20; i++ {
		r.Sets[0].Values = append(r.Sets[0].Values, pcp.Value{Inst: int32(i)})
	}
	for k := 0; k < n; k++ {
		r.Timestamp = pcp.Timestamp{Sec: t0.Sec + int64(k)}
		for i := range r.Sets[0].Values {
			r.Sets[0].Values[i].LVal = int32(k + i)
		}
		must(w.PutResult(r))
	}
	must(w.Close())
	return base
}

// TestLoadMemoryBounded loads an archive of 20,000 records whose metadata
// is fixed: the heap live after each batch does not grow with the records
// read, a load holding its metadata and the batches in flight only.
func TestLoadMemoryBounded(t *testing.T) {
	srv := redistest.Start(t)
	path := longArchive(t, 20000)
	var early, late uint64
	opt := LoadOptions{BatchCommands: 1000, StreamExpire: -1}
	opt.afterBatch = func(n int) {
		if n%4 != 0 {
			return
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if n == 4 {
			early = ms.HeapAlloc
		} else if n >= 12 {
			late = max(late, ms.HeapAlloc)
		}
	}
	st, err := Load(context.Background(), client(t, srv), path, opt)
	if err != nil {
		t.Fatal(err)
	}
	if st.Values != 20000 {
		t.Fatalf("%d values sent, want 20000", st.Values)
	}
	t.Logf("heap live after batch 4: %d KB; most after later batches: %d KB", early/1024, late/1024)
	// a batch of 1000 commands of 20 fields is under 2 MB; allow a few
	if late > early+8<<20 {
		t.Errorf("heap grew from %d KB to %d KB over the load", early/1024, late/1024)
	}
}
