package pmda

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// clientRecorder is a testFetcher whose per-client callbacks note which
// client they were called for, as "what c=N"; it accepts stores to
// test.u32, and with panics set every fetch of a value panics.
type clientRecorder struct {
	*testFetcher
	mu     sync.Mutex
	calls  []string
	panics bool
}

func (r *clientRecorder) note(format string, args ...any) {
	r.mu.Lock()
	r.calls = append(r.calls, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

// take returns the notes since the last take.
func (r *clientRecorder) take() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := strings.Join(r.calls, "; ")
	r.calls = nil
	return s
}

func (r *clientRecorder) Fetch(ctx context.Context, m *Metric, inst int32) (pcp.Atom, error) {
	if r.panics {
		panic("callback broke")
	}
	return r.testFetcher.Fetch(ctx, m, inst)
}

func (r *clientRecorder) BeginRequest(_ context.Context, c Client, t pdu.Type, _ uint32) error {
	r.note("%v c=%d", t, c)
	return nil
}

func (r *clientRecorder) ProfileArrived(c Client) { r.note("profile c=%d", c) }

func (r *clientRecorder) EndContext(c Client) { r.note("end c=%d", c) }

func (r *clientRecorder) Attribute(c Client, key pdu.AttrKey, value []byte) error {
	r.note("attr %d %q c=%d", key, value, c)
	if string(value) == "refuse" {
		return pcp.ErrPermission
	}
	return nil
}

func (r *clientRecorder) Store(_ context.Context, c Client, set *pcp.ValueSet) error {
	r.note("store %v c=%d", set.PMID, c)
	if set.PMID != pmid(itemU32) {
		return pcp.ErrPermission
	}
	return nil
}

// namedRecorder serves one dynamic name, rec.x, noting the client of
// each namespace call.
type namedRecorder struct{ *clientRecorder }

func (r namedRecorder) LookupName(_ context.Context, c Client, name string) (pcp.PMID, error) {
	r.note("lookup %s c=%d", name, c)
	if name != "rec.x" {
		return pcp.PMIDNull, pcp.ErrName
	}
	return pmid(itemU32), nil
}

func (r namedRecorder) Names(_ context.Context, c Client, id pcp.PMID) ([]string, error) {
	r.note("names %v c=%d", id, c)
	return []string{"rec.x"}, nil
}

func (r namedRecorder) Children(_ context.Context, c Client, name string) ([]string, []int32, error) {
	r.note("children %s c=%d", name, c)
	return []string{"x"}, []int32{pdu.PMNSLeafStatus}, nil
}

func (r namedRecorder) Traverse(_ context.Context, c Client, name string) ([]string, error) {
	r.note("traverse %s c=%d", name, c)
	return []string{"rec.x"}, nil
}

// TestHandle asks Handle every request and notification an agent gets,
// each for its own client, and checks the reply and which client's
// callbacks ran; then a panicking callback, which Handle contains.
func TestHandle(t *testing.T) {
	rec := &clientRecorder{testFetcher: &testFetcher{}}
	table := newTestAgent(t, rec)
	named := newTestAgent(t, namedRecorder{rec})
	store := func(id pcp.PMID) *pdu.Result {
		return &pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{PMID: id, NumVal: 1, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 7}}}}}}
	}
	isErr := func(want pcp.Error) func(pdu.Message, error) bool {
		return func(m pdu.Message, err error) bool { return m == nil && errors.Is(err, want) }
	}
	none := func(m pdu.Message, err error) bool { return m == nil && err == nil }
	cases := []struct {
		name   string
		a      *Agent
		c      Client
		req    pdu.Message
		check  func(pdu.Message, error) bool
		called string // the callbacks' notes
	}{
		{"fetch", table, 1, &pdu.Fetch{PMIDs: []pcp.PMID{pmid(itemU32), pmid(77), pmid(itemInst)}}, func(m pdu.Message, err error) bool {
			r, ok := m.(*pdu.Result)
			return err == nil && ok && len(r.Sets) == 3 && r.Sets[0].Values[0].LVal == int32(-559038737) &&
				r.Sets[1].NumVal == int32(pcp.ErrPMID) && r.Sets[2].NumVal == 3
		}, "FETCH c=1"},
		{"desc", table, 2, &pdu.DescReq{PMID: pmid(itemInst)}, func(m pdu.Message, err error) bool {
			d, ok := m.(*pdu.Desc)
			return err == nil && ok && d.Desc.PMID == pmid(itemInst) && d.Desc.InDom == testInDom
		}, "DESC_REQ c=2"},
		{"desc unknown", table, 3, &pdu.DescReq{PMID: pmid(77)}, isErr(pcp.ErrPMID), "DESC_REQ c=3"},
		{"instances", table, 4, &pdu.InstanceReq{InDom: testInDom, Inst: pcp.InstNull}, func(m pdu.Message, err error) bool {
			r, ok := m.(*pdu.Instance)
			return err == nil && ok && len(r.Entries) == 3 && r.Entries[1].Name == "one two"
		}, "INSTANCE_REQ c=4"},
		{"instance unknown", table, 5, &pdu.InstanceReq{InDom: testInDom, Inst: 42}, isErr(pcp.ErrInst), "INSTANCE_REQ c=5"},
		{"text", table, 6, &pdu.TextReq{Ident: uint32(pmid(itemU32)), Type: pdu.TextPMID | pdu.TextHelp}, func(m pdu.Message, err error) bool {
			r, ok := m.(*pdu.Text)
			return err == nil && ok && r.Text == "full\nhelp" && r.Ident == uint32(pmid(itemU32))
		}, "TEXT_REQ c=6"},
		{"no text", table, 7, &pdu.TextReq{Ident: uint32(pmid(itemString)), Type: pdu.TextPMID | pdu.TextOneLine}, isErr(pcp.ErrText), "TEXT_REQ c=7"},
		{"domain labels", table, 8, &pdu.LabelReq{Ident: testDomain, Type: int32(pcp.LabelDomain)}, func(m pdu.Message, err error) bool {
			r, ok := m.(*pdu.Label)
			return err == nil && ok && len(r.Sets) == 1 && r.Sets[0].JSON == `{"agent":"test"}` && r.Type == int32(pcp.LabelDomain)
		}, "LABEL_REQ c=8"},
		{"instance labels", table, 9, &pdu.LabelReq{Ident: uint32(testInDom), Type: int32(pcp.LabelInstances)}, func(m pdu.Message, err error) bool {
			r, ok := m.(*pdu.Label)
			return err == nil && ok && len(r.Sets) == 3 && r.Sets[1].JSON == `{"odd":true}`
		}, "LABEL_REQ c=9"},
		{"bad label type", table, 10, &pdu.LabelReq{Ident: testDomain, Type: 0x40}, isErr(pcp.ErrType), "LABEL_REQ c=10"},
		{"store", table, 11, store(pmid(itemU32)), func(m pdu.Message, err error) bool {
			e, ok := m.(*pdu.Error)
			return err == nil && ok && e.Code == 0
		}, "RESULT c=11; store " + pmid(itemU32).String() + " c=11"},
		{"store refused", table, 12, store(pmid(itemInst)), isErr(pcp.ErrPermission), "RESULT c=12; store " + pmid(itemInst).String() + " c=12"},
		{"name", table, 13, &pdu.PMNSNames{Names: []string{"test.string"}}, func(m pdu.Message, err error) bool {
			r, ok := m.(*pdu.PMNSIDs)
			return err == nil && ok && r.Status == 0 && len(r.PMIDs) == 1 && r.PMIDs[0] == pmid(itemString)
		}, ""},
		{"unknown name", table, 14, &pdu.PMNSNames{Names: []string{"test.nosuch"}}, isErr(pcp.ErrName), ""},
		{"two names", table, 15, &pdu.PMNSNames{Names: []string{"test.u32", "test.inst"}}, isErr(pcp.ErrIPC), ""},
		{"pmid to name", table, 16, &pdu.PMNSIDs{PMIDs: []pcp.PMID{pmid(itemFloat)}}, func(m pdu.Message, err error) bool {
			r, ok := m.(*pdu.PMNSNames)
			return err == nil && ok && len(r.Names) == 1 && r.Names[0] == "test.float"
		}, ""},
		{"pmids with an error status", table, 17, &pdu.PMNSIDs{Status: int32(pcp.ErrPMID), PMIDs: []pcp.PMID{pmid(itemFloat)}}, isErr(pcp.ErrPMID), ""},
		{"two pmids", table, 18, &pdu.PMNSIDs{PMIDs: []pcp.PMID{pmid(itemFloat), pmid(itemU32)}}, isErr(pcp.ErrIPC), ""},
		{"children", table, 19, &pdu.PMNSChild{Subtype: pdu.PMNSChildStatus, Name: "test"}, func(m pdu.Message, err error) bool {
			r, ok := m.(*pdu.PMNSNames)
			return err == nil && ok && len(r.Names) > 0 && len(r.Status) == len(r.Names)
		}, ""},
		{"children without status", table, 20, &pdu.PMNSChild{Subtype: pdu.PMNSChildNames, Name: "test"}, func(m pdu.Message, err error) bool {
			r, ok := m.(*pdu.PMNSNames)
			return err == nil && ok && len(r.Names) > 0 && r.Status == nil
		}, ""},
		{"traverse", table, 21, &pdu.PMNSTraverse{Name: "test.bad"}, func(m pdu.Message, err error) bool {
			r, ok := m.(*pdu.PMNSNames)
			return err == nil && ok && len(r.Names) == 4
		}, ""},
		{"dynamic name", named, 22, &pdu.PMNSNames{Names: []string{"rec.x"}}, func(m pdu.Message, err error) bool {
			r, ok := m.(*pdu.PMNSIDs)
			return err == nil && ok && len(r.PMIDs) == 1 && r.PMIDs[0] == pmid(itemU32)
		}, "lookup rec.x c=22"},
		{"dynamic pmid", named, 23, &pdu.PMNSIDs{PMIDs: []pcp.PMID{pmid(itemU32)}}, func(m pdu.Message, err error) bool {
			r, ok := m.(*pdu.PMNSNames)
			return err == nil && ok && len(r.Names) == 1 && r.Names[0] == "rec.x"
		}, "names " + pmid(itemU32).String() + " c=23"},
		{"dynamic children", named, 24, &pdu.PMNSChild{Subtype: pdu.PMNSChildStatus, Name: "rec"}, func(m pdu.Message, err error) bool {
			r, ok := m.(*pdu.PMNSNames)
			return err == nil && ok && len(r.Names) == 1 && len(r.Status) == 1
		}, "children rec c=24"},
		{"dynamic traverse", named, 25, &pdu.PMNSTraverse{Name: "rec"}, func(m pdu.Message, err error) bool {
			r, ok := m.(*pdu.PMNSNames)
			return err == nil && ok && len(r.Names) == 1
		}, "traverse rec c=25"},
		{"profile", table, 26, &pdu.Profile{State: pdu.ProfileInclude, InDoms: []pdu.InDomProfile{{InDom: testInDom, State: pdu.ProfileExclude, Insts: []int32{1}}}},
			none, "profile c=26"},
		{"fetch under the profile", table, 26, &pdu.Fetch{PMIDs: []pcp.PMID{pmid(itemInst)}}, func(m pdu.Message, err error) bool {
			r, ok := m.(*pdu.Result)
			return err == nil && ok && len(r.Sets) == 1 && r.Sets[0].NumVal == 1 && r.Sets[0].Values[0].Inst == 1
		}, "FETCH c=26"},
		{"attribute", table, 27, &pdu.Attr{Key: pdu.AttrContainer, Value: []byte("box\x00")}, none,
			fmt.Sprintf("attr %d %q c=27", pdu.AttrContainer, "box\x00")},
		{"attribute refused", table, 28, &pdu.Attr{Key: pdu.AttrContainer, Value: []byte("refuse")}, isErr(pcp.ErrPermission),
			fmt.Sprintf("attr %d %q c=28", pdu.AttrContainer, "refuse")},
		{"context ended", table, 29, &pdu.Error{Code: int32(pcp.ErrNotConn)}, none, "end c=29"},
		{"other error", table, 30, &pdu.Error{Code: int32(pcp.ErrGeneric)}, none, ""},
		{"not a request", table, 31, &pdu.Desc{}, isErr(pcp.ErrIPC), ""},
		{"nothing", table, 32, nil, isErr(pcp.ErrIPC), ""},
	}
	for _, tc := range cases {
		reply, err := tc.a.Handle(context.Background(), tc.c, tc.req)
		if !tc.check(reply, err) {
			t.Errorf("%s: reply %T %+v, error %v", tc.name, reply, reply, err)
		}
		if got := rec.take(); got != tc.called {
			t.Errorf("%s: callbacks %q, want %q", tc.name, got, tc.called)
		}
	}

	// A panic in a callback: PM_ERR_IPC saying so, and the agent still
	// answers (its lock was let go).
	rec.panics = true
	reply, err := table.Handle(context.Background(), 40, &pdu.Fetch{PMIDs: []pcp.PMID{pmid(itemU32)}})
	if reply != nil || !errors.Is(err, pcp.ErrIPC) || !strings.Contains(err.Error(), "panicked on a FETCH request: callback broke") {
		t.Errorf("panicking fetch: reply %v, error %v", reply, err)
	}
	if pe, ok := errors.AsType[*panicError](err); !ok || !strings.Contains(string(pe.stack), "clientRecorder") {
		t.Errorf("panic error %#v has no stack naming the callback", err)
	}
	rec.take()
	rec.panics = false
	if r, err := table.Handle(context.Background(), 41, &pdu.Fetch{PMIDs: []pcp.PMID{pmid(itemU32)}}); err != nil || len(r.(*pdu.Result).Sets) != 1 {
		t.Errorf("fetch after the panic: %v, %v", r, err)
	}
	if got := rec.take(); got != "FETCH c=41" {
		t.Errorf("fetch after the panic: callbacks %q", got)
	}
}

// TestServeEndsAfterPanic: a daemon agent whose callback panics answers
// that request with PM_ERR_IPC and ends, with an error saying what
// panicked, rather than crashing its process; pmcd then starts it afresh.
func TestServeEndsAfterPanic(t *testing.T) {
	rec := &clientRecorder{testFetcher: &testFetcher{}, panics: true}
	p := startAgent(t, newTestAgent(t, rec))
	if code, ok := errorCode(p.call(&pdu.Fetch{PMIDs: []pcp.PMID{pmid(itemU32)}}, 3)); !ok || pcp.Error(code) != pcp.ErrIPC {
		t.Errorf("panicking fetch answered with code %d (ERROR PDU %v), want PM_ERR_IPC", code, ok)
	}
	if err := p.wait(); !errors.Is(err, pcp.ErrIPC) || !strings.Contains(err.Error(), "panicked") {
		t.Errorf("Serve after the panic: %v", err)
	}
}
