package mmv

import (
	"context"
	"slices"
	"testing"
	"time"

	gommv "github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/pcp"
)

// TestPMProxyPrefix: pmproxy_init's agent names everything pmproxy.*,
// control metrics included, in its own domain.
func TestPMProxyPrefix(t *testing.T) {
	dir := t.TempDir()
	ag, a, err := newAgent(PMProxyDomain, Options{Dir: dir, Prefix: PMProxyPrefix})
	if err != nil {
		t.Fatal(err)
	}
	defer ag.release()
	r, err := gommv.New("proxy", gommv.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Counter("requests", gommv.MetricOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	names, err := a.Traverse(context.Background(), 0, "pmproxy")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	want := []string{"pmproxy.control.debug", "pmproxy.control.files", "pmproxy.control.reload", "pmproxy.proxy.requests"}
	if !slices.Equal(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
	id, err := a.LookupName(context.Background(), 0, "pmproxy.proxy.requests")
	if err != nil || id.Domain() != PMProxyDomain {
		t.Errorf("PMID %v, %v: want domain %d", id, err, PMProxyDomain)
	}
}

// TestElapsedInProgress: a timed section still running counts up to the
// agent's clock, as pmdammv adds it.
func TestElapsedInProgress(t *testing.T) {
	dir := t.TempDir()
	var later time.Time // an hour after the section starts
	ag, a, err := newAgent(Domain, Options{Dir: dir, Prefix: Prefix, Now: func() time.Time { return later }})
	if err != nil {
		t.Fatal(err)
	}
	defer ag.release()
	r, err := gommv.New("timed", gommv.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	tm, err := r.Timer("busy", gommv.MetricOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tm.Add(5)
	tm.Start()
	later = time.Now().Add(time.Hour)
	id, err := a.LookupName(context.Background(), 0, "mmv.timed.busy")
	if err != nil {
		t.Fatal(err)
	}
	d, err := a.Desc(context.Background(), 0, id)
	if err != nil || d.Type != pcp.Type64 || d.Sem != pcp.SemCounter || d.Units != (pcp.Units{DimTime: 1, ScaleTime: pcp.TimeUSec}) {
		t.Errorf("descriptor %+v, %v: want a 64-bit counter in µs", d, err)
	}
	res, err := a.Fetch(context.Background(), 0, []pcp.PMID{id})
	if err != nil || res.Sets[0].NumVal != 1 {
		t.Fatalf("fetch: %+v, %v", res, err)
	}
	v, err := pcp.ExtractValue(res.Sets[0].ValFmt, &res.Sets[0].Values[0], pcp.Type64, pcp.Type64)
	hour := int64(time.Hour / time.Microsecond)
	if err != nil || v.LL < hour+5 || v.LL > hour+int64(time.Minute/time.Microsecond) {
		t.Errorf("elapsed %d µs, %v: want about an hour (%d) plus 5", v.LL, err, hour)
	}

}
