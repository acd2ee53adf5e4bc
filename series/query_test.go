package series

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
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
		redisDo(t, c, "HSET", "pcp:map:label."+nid+".value", string(vid[:]), v)
		redisDo(t, c, "SADD", "pcp:series:label."+nid+".value:"+vid.String(), string(sids[i][:]))
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
		// && and || are of one precedence, from the left, as in libpcp_web's grammar.
		{"{rack>0 || rack==\"3\" && rack<2}", []int{0}},
		{"{rack<2 && rack==\"3\" || rack>=2}", []int{1}},
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

// TestQueryValuesBounded: a query with functions holding more values than
// the bound is refused with a message, not answered from unbounded memory.
func TestQueryValuesBounded(t *testing.T) {
	srv := redistest.Start(t)
	c := client(t, srv)
	ctx := context.Background()
	for i := 1; i <= 10; i++ {
		redisDo(t, c, "XADD", "pcp:values:series:"+StringID("s").String(), strconv.Itoa(i)+"-0", "", "1")
	}
	sid := StringID("s")
	nid := StringID("m")
	redisDo(t, c, "SADD", "pcp:series:metric.name:"+nid.String(), string(sid[:]))
	st := NewStore(c)
	st.valuesLimit = 5
	if _, err := st.Query(ctx, "max(m[samples:4])"); err != nil {
		t.Errorf("4 values: %v", err)
	}
	_, err := st.Query(ctx, "max(m[samples:6])")
	var qe *QueryError
	if !errors.As(err, &qe) || !strings.Contains(qe.Msg, "more than 5 values") {
		t.Errorf("6 values: %v", err)
	}
}
