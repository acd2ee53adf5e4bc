package linux

import (
	"errors"
	"github.com/gopcp/gopcp/pmda"
	"testing"
)

// TestSumGetter checks the counters summed from later ones the way PCP's
// agent sums them: absent parts count as all ones, wrapping.
func TestSumGetter(t *testing.T) {
	const maxU = ^uint64(0)
	tests := []struct {
		name string
		have map[string]uint64
		want uint64
		none bool
	}{
		{"whole present", map[string]uint64{"thp_split": 7, "thp_split_page": 1}, 7, false},
		{"both parts", map[string]uint64{"thp_split_page": 5, "thp_split_page_failed": 2}, 7, false},
		{"one part", map[string]uint64{"thp_split_page": 5}, 4, false},
		{"one part zero", map[string]uint64{"thp_split_page_failed": 0}, 0, true},
		{"one part one", map[string]uint64{"thp_split_page_failed": 1}, 0, false},
		{"nothing", nil, maxU - 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var k kvData
			get := k.sumGetter("thp_split", "thp_split_page", "thp_split_page_failed")
			k.reset()
			for key, v := range tt.have {
				k.set([]byte(key), v)
			}
			a, err := get(-1)
			if tt.none {
				if !errors.Is(err, pmda.ErrNoValue) {
					t.Fatalf("got %v, %v; want no value", a, err)
				}
				return
			}
			if err != nil || a != u64(tt.want) {
				t.Fatalf("got %v, %v; want %d", a, err, tt.want)
			}
		})
	}
}
