package series

import (
	"testing"
	"time"
)

// TestTimesOutOfRange: numbers no time can hold are refused (as
// __pmParseHighResTime refuses them) or held within ±1e15 s, never turned
// into a meaningless window.
func TestTimesOutOfRange(t *testing.T) {
	for _, s := range []string{"1e300", "-1e300", "NaN", "Inf", "+Inf", "99999999999999999999"} {
		if got, err := valuesTime(s, "start"); err == nil && (got.Unix() > 1e15 || got.Unix() < -1e15) {
			t.Errorf("%q: %v", s, got)
		}
	}
	if got, err := valuesTime("1500000000.5", "start"); err != nil || !got.Equal(time.Unix(1500000000, 5e8)) {
		t.Errorf("1500000000.5: %v %v", got, err)
	}
}
