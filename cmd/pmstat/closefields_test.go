package main

import "testing"

// TestCloseFields: report lines from two programs sampling moments apart
// match within each column's tolerance, and not beyond it.
func TestCloseFields(t *testing.T) {
	const pcp = "   15.96      0 15797m 287752  6725m    0    0   79    0 3087 6757  74  26   0   0   0"
	for _, c := range []struct {
		name, line string
		close      bool
	}{
		// seen in a run at a load of 16: the load average updated
		// between the two programs' fetches
		{"load average updated", "   15.40      0 15795m 287752  6726m    0    0   73    0 3168 6915  76  24   0   0   0", true},
		{"load average of another column", "    1.32      0 15795m 287752  6726m    0    0   73    0 3168 6915  76  24   0   0   0", false},
		{"buffers far apart", "   15.96      0 15797m 387752  6725m    0    0   79    0 3087 6757  74  26   0   0   0", false},
		// seen in a clean-clone CI run beside three others: 59/41
		// against 85/15 user/system over two 0.4 s intervals
		{"cpu far apart on a loaded machine", "   15.96      0 15797m 287752  6725m    0    0   79    0 3087 6757  34  66   0   0   0", true},
		{"cpu not a percentage", "   15.96      0 15797m 287752  6725m    0    0   79    0 3087 6757 174  66   0   0   0", false},
		{"a column missing", "   15.96      0 15797m 287752  6725m    0    0   79    0 3087 6757  74  26   0   0", false},
	} {
		if got := closeFields(pcp, c.line); got != c.close {
			t.Errorf("%s: closeFields %v, want %v", c.name, got, c.close)
		}
	}
	// a small load keeps the absolute bound
	if closeFields("    0.20      0", "    0.80      0") {
		t.Errorf("load averages 0.20 and 0.80 taken as close")
	}
}
