package series

import (
	"encoding/json"
	"testing"
	"time"
)

// TestParseWhenOutOfRange: numbers no time can hold are refused, not
// turned into a meaningless window.
func TestParseWhenOutOfRange(t *testing.T) {
	now := time.Unix(1700000000, 0)
	for _, s := range []string{"1e300", "-1e300", "NaN", "Inf", "+Inf"} {
		if _, err := parseWhen(s, now); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
	if got, err := parseWhen("1500000000.5", now); err != nil || !got.Equal(time.Unix(1500000000, 5e8)) {
		t.Errorf("1500000000.5: %v %v", got, err)
	}
}

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
