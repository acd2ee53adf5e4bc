package series

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/redistest"
)

// TestStoreAnswers reads back what a load wrote, through the calls a
// /series handler makes, and checks them against the archive's facts.
func TestStoreAnswers(t *testing.T) {
	srv := redistest.Start(t)
	c := client(t, srv)
	ctx := context.Background()
	if _, err := Load(ctx, c, filepath.Join(qaArchives, "omnibus_v3"), LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	st := NewStore(c)
	res, err := st.Query(ctx, "sample.colour")
	if err != nil || len(res.Series) != 1 {
		t.Fatalf("query: %v %v", res, err)
	}
	sid := res.Series[0]
	descs, err := st.Descs(ctx, res.Series)
	if err != nil || len(descs) != 1 || descs[0].PMID != "29.0.5" || descs[0].InDom != "29.1" || descs[0].Type != "32" {
		t.Errorf("descs: %+v %v", descs, err)
	}
	insts, err := st.Instances(ctx, res.Series)
	if err != nil || len(insts) != 3 || insts[0].Name != "red" || insts[2].Name != "blue" {
		t.Errorf("instances: %+v %v", insts, err)
	}
	names, err := st.Metrics(ctx, res.Series)
	if err != nil || len(names) != 1 || names[0].Name != "sample.colour" {
		t.Errorf("metrics: %+v %v", names, err)
	}
	srcs, err := st.SourceNames(ctx, []string{descs[0].Source})
	if err != nil || len(srcs) != 2 {
		t.Errorf("sources: %+v %v", srcs, err)
	}
	vals, err := st.Values(ctx, []string{sid}, &Window{Samples: 1})
	if err != nil || len(vals) != 3 {
		t.Fatalf("values: %+v %v", vals, err)
	}
	b, _ := json.Marshal(vals)
	if !strings.Contains(string(b), `"instance":"`+insts[0].Instance+`"`) {
		t.Errorf("values JSON %s lacks instance %s", b, insts[0].Instance)
	}
	labels, err := st.SeriesLabelsOf(ctx, []string{insts[0].Instance})
	if err != nil || len(labels) != 1 {
		t.Errorf("labels: %+v %v", labels, err)
	}
	if _, err := st.Values(ctx, []string{"nonsense"}, nil); err == nil {
		t.Errorf("values of a bad identifier: no error")
	}
}
