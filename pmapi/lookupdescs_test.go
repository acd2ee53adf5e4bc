package pmapi_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

func TestLookupDescsEach(t *testing.T) {
	known := pcp.NewPMID(29, 0, 1)
	lookup := func(_ context.Context, id pcp.PMID) (pcp.Desc, error) {
		if id == known {
			return pcp.Desc{PMID: id, Type: pcp.TypeU32}, nil
		}
		return pcp.Desc{}, pcp.ErrPMID
	}
	ctx := context.Background()
	other := pcp.NewPMID(29, 0, 2)
	tests := []struct {
		name    string
		pmids   []pcp.PMID
		want    []pcp.PMID
		wantErr error
	}{
		{"none", nil, nil, pcp.ErrTooSmall},
		{"one known", []pcp.PMID{known}, []pcp.PMID{known}, nil},
		{"one unknown fails", []pcp.PMID{other}, nil, pcp.ErrPMID},
		{"unknown among several", []pcp.PMID{other, known}, []pcp.PMID{pcp.PMIDNull, known}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pmapi.LookupDescsEach(ctx, tt.pmids, lookup)
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d descriptors, want %d", len(got), len(tt.want))
			}
			for i := range got {
				if got[i].PMID != tt.want[i] {
					t.Errorf("desc %d PMID = %v, want %v", i, got[i].PMID, tt.want[i])
				}
			}
		})
	}
}
