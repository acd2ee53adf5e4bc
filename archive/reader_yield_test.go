package archive

import (
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// TestReaderYields: a reader counts the records it reads, looks at the
// clock every yieldReads of them, and yields (noting when) once
// yieldEvery has passed since it last did.
func TestReaderYields(t *testing.T) {
	past := time.Now().Add(-time.Hour)
	for _, c := range []struct {
		name   string
		reads  int // calls to yield
		since  time.Time
		moved  bool // yieldAt changes
		nowish bool // to about now
	}{
		{"first look notes the time", yieldReads, time.Time{}, true, true},
		{"no look before yieldReads records", yieldReads - 1, past, false, false},
		{"yields after yieldEvery", yieldReads, past, true, true},
		{"not again at once", yieldReads, time.Now().Add(time.Hour), false, false},
	} {
		r := &Reader{yieldAt: c.since}
		for range c.reads {
			r.yield()
		}
		if moved := !r.yieldAt.Equal(c.since); moved != c.moved {
			t.Errorf("%s: yieldAt moved %v, want %v", c.name, moved, c.moved)
		}
		if c.nowish && time.Since(r.yieldAt) > time.Minute {
			t.Errorf("%s: yieldAt %v, want about now", c.name, r.yieldAt)
		}
	}
	// reading counts records
	a, err := Open(testArchive(t, t.TempDir(), Version3, 6), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := a.NewReader()
	var res pcp.Result
	for r.Fetch(&res) == nil {
	}
	if r.reads < 6 {
		t.Fatalf("%d records counted for 6 read", r.reads)
	}
}
