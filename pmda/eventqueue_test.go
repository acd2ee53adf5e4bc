package pmda

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

var queueParam = pcp.NewPMID(29, 0, 77)

// decodeString makes one point record per raw event, its bytes as a
// string parameter, as a typical agent's decoder does.
func decodeString(a *EventArray, data []byte, t time.Time) (int, error) {
	if err := a.AddRecord(t, pcp.EventFlagPoint); err != nil {
		return 0, err
	}
	return 1, a.AddParam(queueParam, pcp.TypeString, &pcp.Atom{CP: string(data)})
}

// fetch reads ctx's records of q as "missed=N" and the string parameters.
func fetch(t *testing.T, q *EventQueue, ctx Client) string {
	t.Helper()
	vb, err := q.Records(ctx, decodeString)
	if err != nil {
		t.Fatalf("Records(%d): %v", ctx, err)
	}
	if vb == nil {
		return ""
	}
	recs, err := pcp.UnpackEvents(vb.Data, false)
	if err != nil {
		t.Fatalf("unpacking: %v", err)
	}
	var out []string
	for _, r := range recs {
		for _, p := range r.Params {
			v := p.Values[0]
			switch p.PMID {
			case pcp.PMIDEventMissed:
				out = append(out, fmt.Sprintf("missed=%d", v.LVal))
			case queueParam:
				out = append(out, string(v.Block.Data))
			}
		}
	}
	return strings.Join(out, ",")
}

func TestEventQueueErrors(t *testing.T) {
	var qs EventQueues
	q, err := qs.NewQueue("q", 100)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		err  error
		want syscall.Errno
	}{
		{"no memory", second(qs.NewQueue("r", 0)), syscall.EINVAL},
		{"negative clients", second(qs.NewActiveQueue("r", 10, -1)), syscall.EINVAL},
		{"duplicate", second(qs.NewQueue("q", 10)), syscall.EEXIST},
		{"unknown queue", second(qs.Queue("nope")), syscall.ESRCH},
		{"unknown client records", second(q.Records(9, decodeString)), syscall.EINVAL},
		{"unknown client access", q.SetAccess(9, true), syscall.EINVAL},
		{"unknown client filter", q.SetFilter(9, nil, nil), syscall.EINVAL},
	}
	for _, tc := range tests {
		if !errors.Is(tc.err, pcp.Error(-int32(tc.want))) {
			t.Errorf("%s: got %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	// as in PCP: a queue may be called "", and pmcd ending a context the
	// agent never saw is no error
	if _, err := qs.NewQueue("", 10); err != nil {
		t.Errorf("empty name: %v", err)
	}
	if err := qs.EndClient(9); err != nil {
		t.Errorf("ending an unknown client: %v", err)
	}
	if got, err := qs.Queue("q"); err != nil || got != q || got.Handle() != 0 {
		t.Errorf("Queue(q) = %v, %v", got, err)
	}
	if err := q.Shutdown(); err != nil {
		t.Fatal(err)
	}
	if err := q.Append([]byte("x"), time.Now()); !errors.Is(err, pcp.Error(-int32(syscall.EINVAL))) {
		t.Errorf("append after shutdown: %v", err)
	}
	// the name and the slot are free again
	if r, err := qs.NewQueue("q", 10); err != nil || r.Handle() != 0 {
		t.Errorf("reuse: %v, %v", r, err)
	}
}

func second[T any](_ T, err error) error { return err }

func TestEventQueueNoReaders(t *testing.T) {
	var qs EventQueues
	q, _ := qs.NewQueue("q", 100)
	qs.NewClient(1)
	q.SetAccess(1, true)
	q.Append([]byte("early"), time.Now())
	if q.Counter() != 1 || q.Bytes() != 5 || q.Memory() != 0 || q.Clients() != 0 {
		t.Errorf("counter %d bytes %d memory %d clients %d", q.Counter(), q.Bytes(), q.Memory(), q.Clients())
	}
	// the first fetch makes the client a reader; earlier events are gone
	if got := fetch(t, q, 1); got != "" {
		t.Errorf("first fetch %q", got)
	}
	q.Append([]byte("one"), time.Now())
	q.Append([]byte("two"), time.Now())
	if got := fetch(t, q, 1); got != "one,two" {
		t.Errorf("second fetch %q", got)
	}
	if got := fetch(t, q, 1); got != "" {
		t.Errorf("third fetch %q", got)
	}
	if q.Memory() != 0 || q.Counter() != 3 || q.Bytes() != 11 || q.Clients() != 1 {
		t.Errorf("counter %d bytes %d memory %d clients %d", q.Counter(), q.Bytes(), q.Memory(), q.Clients())
	}
}

func TestEventQueueActive(t *testing.T) {
	var qs EventQueues
	q, _ := qs.NewActiveQueue("q", 100, 1)
	q.Append([]byte("kept"), time.Now())
	if q.Memory() != 4 {
		t.Errorf("memory %d", q.Memory())
	}
	qs.NewClient(1)
	q.SetAccess(1, true)
	if got := fetch(t, q, 1); got != "kept" {
		t.Errorf("fetch %q", got)
	}
}

func TestEventQueueClients(t *testing.T) {
	var qs EventQueues
	q, _ := qs.NewQueue("q", 1000)
	released := 0
	for ctx := Client(1); ctx <= 4; ctx++ {
		qs.NewClient(ctx)
		fetch(t, q, ctx)
	}
	q.SetAccess(1, true)
	q.SetFilter(2, func(d []byte) bool { return strings.HasPrefix(string(d), "b") }, func() { released++ })
	q.SetAccess(4, false) // client 3 has neither: no access
	for _, s := range []string{"apple", "banana", "cherry"} {
		q.Append([]byte(s), time.Now())
	}
	if qs.Clients() != 4 || q.Clients() != 4 {
		t.Errorf("clients %d, readers %d", qs.Clients(), q.Clients())
	}
	want := map[Client]string{1: "apple,banana,cherry", 2: "apple,cherry", 3: "", 4: ""}
	for ctx := Client(1); ctx <= 4; ctx++ {
		if got := fetch(t, q, ctx); got != want[ctx] {
			t.Errorf("client %d: %q, want %q", ctx, got, want[ctx])
		}
	}
	if q.Memory() != 0 {
		t.Errorf("memory %d after every reader read", q.Memory())
	}
	// an event one reader has not read stays until it reads or ends
	q.Append([]byte("date"), time.Now())
	fetch(t, q, 1)
	fetch(t, q, 2)
	fetch(t, q, 3)
	if q.Memory() != 4 {
		t.Errorf("memory %d with a reader behind", q.Memory())
	}
	if err := qs.EndClient(4); err != nil {
		t.Fatal(err)
	}
	if q.Memory() != 0 || q.Clients() != 3 || qs.Clients() != 3 {
		t.Errorf("after end: memory %d readers %d clients %d", q.Memory(), q.Clients(), qs.Clients())
	}
	// a replaced filter and an ended client release the filter
	q.SetFilter(2, nil, nil)
	if released != 1 {
		t.Errorf("released %d", released)
	}
	// shut down with readers: released when the last ends
	q.Shutdown()
	for _, ctx := range []Client{1, 2} {
		qs.EndClient(ctx)
	}
	if _, err := qs.Queue("q"); err != nil {
		t.Errorf("queue gone with a reader left: %v", err)
	}
	qs.EndClient(3)
	if _, err := qs.Queue("q"); err == nil {
		t.Error("queue kept after its last reader ended")
	}
}

func TestEventQueueLimits(t *testing.T) {
	var qs EventQueues
	q, _ := qs.NewQueue("q", 10)
	qs.NewClient(1)
	qs.NewClient(2)
	q.SetAccess(1, true)
	q.SetAccess(2, true)
	fetch(t, q, 1)
	fetch(t, q, 2)
	for _, s := range []string{"aaaa", "bbbb", "cccc", "dddd"} {
		q.Append([]byte(s), time.Now())
	}
	// too large for the queue: counted, not kept, nothing dropped
	q.Append([]byte("0123456789A"), time.Now())
	if q.Memory() != 8 || q.Counter() != 5 || q.Bytes() != 27 {
		t.Errorf("memory %d counter %d bytes %d", q.Memory(), q.Counter(), q.Bytes())
	}
	if got := fetch(t, q, 1); got != "cccc,dddd,missed=2" {
		t.Errorf("client 1: %q", got)
	}
	q.Append([]byte("eeee"), time.Now()) // drops cccc, which client 2 had not read
	if got := fetch(t, q, 2); got != "dddd,eeee,missed=3" {
		t.Errorf("client 2: %q", got)
	}
	if got := fetch(t, q, 1); got != "eeee" {
		t.Errorf("client 1 again: %q", got)
	}
	if q.Memory() != 0 {
		t.Errorf("memory %d", q.Memory())
	}
}

func TestEventQueueDecodeError(t *testing.T) {
	var qs EventQueues
	q, _ := qs.NewQueue("q", 100)
	qs.NewClient(1)
	q.SetAccess(1, true)
	fetch(t, q, 1)
	q.Append([]byte("x"), time.Now())
	bad := errors.New("bad event")
	_, err := q.Records(1, func(*EventArray, []byte, time.Time) (int, error) { return 0, bad })
	if !errors.Is(err, bad) {
		t.Errorf("got %v", err)
	}
}

func TestEventQueueStats(t *testing.T) {
	var qs EventQueues
	q, _ := qs.NewQueue("q", 100)
	qs.NewClient(1)
	qs.NewClient(2)
	q.SetAccess(1, true)
	if _, err := q.FetchRecords(1, decodeString); !errors.Is(err, ErrNoValue) {
		t.Errorf("no records: %v", err)
	}
	q.Append([]byte("abc"), time.Unix(5, 0))
	q.Append([]byte("0123456789"), time.Unix(6, 0))
	a, err := q.FetchRecords(1, decodeString)
	if err != nil || a.VBP == nil || a.VBP.Type != pcp.TypeEvent {
		t.Fatalf("records: %+v %v", a, err)
	}
	want := []struct {
		s    QueueStat
		a    pcp.Atom
		desc pcp.Desc
	}{
		{QueueCounter, pcp.Atom{UL: 2}, pcp.Desc{Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemCounter, Units: pcp.Units{DimCount: 1}}},
		{QueueBytes, pcp.Atom{ULL: 13}, pcp.Desc{Type: pcp.TypeU64, InDom: pcp.InDomNull, Sem: pcp.SemCounter, Units: pcp.Units{DimSpace: 1, ScaleSpace: pcp.SpaceByte}}},
		{QueueClients, pcp.Atom{UL: 1}, pcp.Desc{Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemInstant, Units: pcp.Units{DimCount: 1}}},
		{QueueMemory, pcp.Atom{ULL: 0}, pcp.Desc{Type: pcp.TypeU64, InDom: pcp.InDomNull, Sem: pcp.SemInstant, Units: pcp.Units{DimSpace: 1, ScaleSpace: pcp.SpaceByte}}},
	}
	for _, w := range want {
		got, err := q.Stat(w.s)
		if err != nil || got != w.a || w.s.Desc() != w.desc {
			t.Errorf("stat %d: %+v %v, desc %+v", w.s, got, err, w.s.Desc())
		}
	}
	if got := qs.ClientsAtom(); got.UL != 2 {
		t.Errorf("clients %d", got.UL)
	}
	// a released queue's statistics are -EINVAL, as PCP's
	qs.EndClient(1)
	q.Shutdown()
	for _, s := range []QueueStat{QueueCounter, QueueBytes, QueueClients, QueueMemory} {
		if _, err := q.Stat(s); !errors.Is(err, pcp.Error(-int32(syscall.EINVAL))) {
			t.Errorf("stat %d of a released queue: %v", s, err)
		}
	}
}
