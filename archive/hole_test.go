package archive

import (
	"errors"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestHoleAtLengthWord reads across a span of a volume that cannot be
// read (a damaged .xz block) starting at a record's length word, in both
// directions: the read fails with PM_ERR_LOGREC where libpcp's read
// fails, and does not panic on the missing bytes.
func TestHoleAtLengthWord(t *testing.T) {
	base := testArchive(t, t.TempDir(), Version3, 4)
	a, err := Open(base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Mode{Forward, Backward} {
		r := a.NewReader()
		var res pcp.Result
		if err := r.Fetch(&res); err != nil { // the first record
			t.Fatal(err)
		}
		vol, off := r.Position()
		at := off
		if m == Backward {
			at = off - 4 // the trailer of the record just read
		}
		r.cur.holes = []span{{at, at + 4}}
		if err := r.ReadFrom(m, vol, off); err != nil {
			t.Fatal(err)
		}
		r.cur.holes = []span{{at, at + 4}}
		err := r.Next(&res)
		if !errors.Is(err, pcp.ErrLogRec) {
			t.Errorf("mode %d: %v, want PM_ERR_LOGREC", m, err)
		}
		r.Close()
	}
}
