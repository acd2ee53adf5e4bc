package series

import (
	"context"
	"slices"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/redistest"
)

// TestRelationalLabels: pmseries(1)'s relational operators on numeric
// label values select by the number (PCP 6.0.3 parses them and leaves
// them unevaluated, matching nothing); a quoted string value never
// compares, nor do metric, instance and source names. The QA archives'
// indexed labels are all strings, so three series get a label "rack"
// in the schema's keys: 1, 2.5 and the string "3".
func TestRelationalLabels(t *testing.T) {
	srv := redistest.Start(t)
	c := client(t, srv)
	ctx := context.Background()
	sids := []ID{StringID("one"), StringID("two"), StringID("three")}
	nid := StringID("rack").String()
	for i, v := range []string{"1", "2.5", `"3"`} {
		vid := StringID(v)
		if err := c.HSet(ctx, "pcp:map:label."+nid+".value", string(vid[:]), v).Err(); err != nil {
			t.Fatal(err)
		}
		if err := c.SAdd(ctx, "pcp:series:label."+nid+".value:"+vid.String(), string(sids[i][:])).Err(); err != nil {
			t.Fatal(err)
		}
	}
	st := NewStore(c)
	for _, tc := range []struct {
		q    string
		want []int
	}{
		{"{rack>1}", []int{1}},
		{"{rack>=1}", []int{0, 1}},
		{"{rack<2.5}", []int{0}},
		{"{rack<=2.5}", []int{0, 1}},
		{"{rack<1}", nil},
		{"{rack>0 || rack==\"3\"}", []int{0, 1, 2}},
		{"{rack==1}", []int{0}},
		{"{metric.name<5}", nil},
		{"{instance.name>=0}", nil},
	} {
		res, err := st.Query(ctx, tc.q)
		if err != nil {
			t.Errorf("%s: %v", tc.q, err)
			continue
		}
		var want []string
		for _, i := range tc.want {
			want = append(want, sids[i].String())
		}
		got := slices.Clone(res.Series)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", tc.q, got, want)
		}
	}
}
