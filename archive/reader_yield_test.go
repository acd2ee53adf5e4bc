package archive

import (
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// TestYielder: a yielder counts the records read, looks at the clock
// every yieldReads of them, and yields (noting when) once yieldEvery has
// passed since it last did; a Reader counts the records it reads.
func TestYielder(t *testing.T) {
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
		y := yielder{at: c.since}
		for range c.reads {
			y.tick()
		}
		if moved := !y.at.Equal(c.since); moved != c.moved {
			t.Errorf("%s: the time moved %v, want %v", c.name, moved, c.moved)
		}
		if c.nowish && time.Since(y.at) > time.Minute {
			t.Errorf("%s: the time is %v, want about now", c.name, y.at)
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
	if r.yield.count < 6 {
		t.Fatalf("%d records counted for 6 read", r.yield.count)
	}
}
