package restapi

import (
	"encoding/json"
	"testing"
)

// TestLabelNamesQuoted: a label name from the request is quoted in the
// reply, so the reply stays JSON whatever the name holds.
func TestLabelNamesQuoted(t *testing.T) {
	b, err := json.Marshal(labelValuesJSON{names: []string{`a"b`, "c"}, vals: [][]string{{`"x"`}, {"1", "2"}}})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string][]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if len(got[`a"b`]) != 1 || len(got["c"]) != 2 {
		t.Errorf("%s", b)
	}
	if string(b) != `{"a\"b":["x"],"c":[1,2]}` {
		t.Errorf("%s", b)
	}
}
