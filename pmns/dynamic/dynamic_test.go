package dynamic

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// A namespace with a static metric and two dynamic subtrees: domain 29's
// (an agent answers) and domain 30's (no agent).
const tree = "root {\n\ta\n\tdyn\t29:*:*\n\tgone\t30:*:*\n}\na {\n\tx\t1:0:1\n}\n"

// ask is domain 29's agent: dyn.m (29.0.5) and dyn.sub.n (29.0.6).
func ask(_ context.Context, domain uint32, req pdu.Message) (pdu.Message, error) {
	if domain != 29 {
		return nil, pcp.ErrNoAgent
	}
	names := map[string]pcp.PMID{"dyn.m": pcp.NewPMID(29, 0, 5), "dyn.sub.n": pcp.NewPMID(29, 0, 6)}
	switch r := req.(type) {
	case *pdu.PMNSNames:
		id, ok := names[r.Names[0]]
		if !ok {
			id = pcp.PMIDNull
		}
		return &pdu.PMNSIDs{PMIDs: []pcp.PMID{id}}, nil
	case *pdu.PMNSTraverse:
		var out []string
		for n := range names {
			if n == r.Name || strings.HasPrefix(n, r.Name+".") {
				out = append(out, n)
			}
		}
		slices.Sort(out)
		return &pdu.PMNSNames{Names: out}, nil
	case *pdu.PMNSChild:
		return &pdu.PMNSNames{Names: []string{"m", "sub"}, Status: []int32{0, pdu.PMNSNonLeafStatus}}, nil
	case *pdu.PMNSIDs:
		for n, id := range names {
			if id == r.PMIDs[0] {
				return &pdu.PMNSNames{Names: []string{n}}, nil
			}
		}
		return nil, pcp.ErrPMID
	}
	return nil, pcp.ErrIPC
}

func TestDynamic(t *testing.T) {
	tr, err := pmns.Parse(strings.NewReader(tree), pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	lookups := []struct {
		name string
		want pcp.PMID
		err  error
	}{
		{"a.x", pcp.NewPMID(1, 0, 1), nil},
		{"dyn.m", pcp.NewPMID(29, 0, 5), nil},
		{"dyn.sub.n", pcp.NewPMID(29, 0, 6), nil},
		{"dyn.nosuch", pcp.PMIDNull, pcp.ErrName},
		{"gone.m", pcp.PMIDNull, pcp.ErrNoAgent},
		{"nosuch", pcp.PMIDNull, pcp.ErrName},
	}
	for _, c := range lookups {
		ids, found, err := LookupNames(ctx, tr, ask, []string{c.name})
		if (c.err == nil) != (err == nil) || c.err != nil && !errors.Is(err, c.err) || ids[0] != c.want || (found == 1) != (c.err == nil) {
			t.Errorf("LookupNames(%q) = %v, %d, %v; want %v, %v", c.name, ids, found, err, c.want, c.err)
		}
	}
	ids, found, err := LookupNames(ctx, tr, ask, []string{"a.x", "gone.m", "dyn.m"})
	if err != nil || found != 2 || ids[1] != pcp.PMIDNull {
		t.Errorf("three names: %v, %d, %v", ids, found, err)
	}
	traversals := []struct {
		name string
		want []string
		err  error
	}{
		{"", []string{"a.x", "dyn.m", "dyn.sub.n", "gone"}, nil},
		{"dyn", []string{"dyn.m", "dyn.sub.n"}, nil},
		{"dyn.sub", []string{"dyn.sub.n"}, nil},
		{"dyn.nosuch", nil, pcp.ErrName},
		{"gone", []string{"gone"}, nil},
	}
	for _, c := range traversals {
		got, err := Traverse(ctx, tr, ask, c.name)
		if !slices.Equal(got, c.want) || (c.err == nil) != (err == nil) || c.err != nil && !errors.Is(err, c.err) {
			t.Errorf("Traverse(%q) = %q, %v; want %q, %v", c.name, got, err, c.want, c.err)
		}
	}
	kids, err := Children(ctx, tr, ask, "dyn", pdu.PMNSChildStatus)
	if err != nil || !slices.Equal(kids.Names, []string{"m", "sub"}) || kids.Status[1] != pdu.PMNSNonLeafStatus {
		t.Errorf("Children(dyn) = %+v, %v", kids, err)
	}
	if _, err := Children(ctx, tr, ask, "gone", pdu.PMNSChildNames); !errors.Is(err, pcp.ErrNoAgent) {
		t.Errorf("Children(gone): %v, want PM_ERR_NOAGENT", err)
	}
	if names, err := NameAll(ctx, tr, ask, pcp.NewPMID(29, 0, 6)); err != nil || !slices.Equal(names, []string{"dyn.sub.n"}) {
		t.Errorf("NameAll(29.0.6) = %q, %v", names, err)
	}
	if names, err := NameAll(ctx, tr, ask, pcp.NewPMID(1, 0, 1)); err != nil || !slices.Equal(names, []string{"a.x"}) {
		t.Errorf("NameAll(1.0.1) = %q, %v", names, err)
	}
}
