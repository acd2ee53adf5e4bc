package series

import (
	"encoding/json"
	"testing"
)

// The /series answers marshal to the JSON PCP's pmproxy writes
// (src/pmproxy/src/series.c's formats).
func TestJSONShapes(t *testing.T) {
	sid := "b229f1c083b2f74557eae37a6aeaaec46f72aeeb"
	inst := "884b18d82f47cba18b216222e67c7353dcf95e3d"
	cases := []struct {
		v    any
		want string
	}{
		{[]Value{{Series: sid, Instance: inst, Stamp: "1648968664731-688", Value: "188"}},
			`[{"series":"` + sid + `","instance":"` + inst + `","timestamp":1648968664731.688,"value":"188"}]`},
		{Value{Series: sid, Stamp: "1-2", Value: "\"a\tb\""},
			`{"series":"` + sid + `","timestamp":1.2,"value":"\"a\tb\""}`},
		{Desc{Series: sid, Source: inst, PMID: "29.0.5", InDom: "29.1", Semantics: "instant", Type: "32", Units: "none"},
			`{"series":"` + sid + `","source":"` + inst + `","pmid":"29.0.5","indom":"29.1","semantics":"instant","type":"32","units":"none"}`},
		{Instance{Series: sid, Source: inst, Instance: inst, ID: 2, Name: "blue"},
			`{"series":"` + sid + `","source":"` + inst + `","instance":"` + inst + `","id":2,"name":"blue"}`},
		{Name{sid, "sample.colour"}, `{"series":"` + sid + `","name":"sample.colour"}`},
		{SourceName{inst, "bozo"}, `{"source":"` + inst + `","name":"bozo"}`},
		{SeriesLabels{sid, []Label{{"agent", `"sample"`}, {"bin", "100"}}},
			`{"series":"` + sid + `","labels":{"agent":"sample","bin":100}}`},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("%T:\n got %s\nwant %s", c.v, b, c.want)
		}
	}
}
