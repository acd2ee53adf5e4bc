package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestCutAgainstPCP cuts each file of a small v2 archive and of a v3
// one every few bytes through its label and first three records (and
// so makes archives with no record, or a label alone, or a part of one)
// and compares pmlogcheck on each with PCP's, with the options that
// read the open archive in turn.
func TestCutAgainstPCP(t *testing.T) {
	var cases []clitest.Case
	for _, a := range []struct {
		name string
		step int64
	}{{"541380_v2", 4}, {"omnibus_v3", 17}} {
		orig := clitest.QAArchive(t, a.name)
		for _, suffix := range []string{".meta", ".0", ".index"} {
			b, err := os.ReadFile(orig + suffix)
			if err != nil {
				t.Fatal(err)
			}
			end := firstRecords(b, suffix, 3)
			for off := int64(0); off < end; off += a.step {
				dmg := clitest.Damage{Suffix: suffix, Kind: "truncate", Off: off}
				base := clitest.CopyDamaged(t, orig, t.TempDir(), dmg)
				// the options that need the archive open, in turn
				opts := [][]string{{"-v"}, {"-l"}, {"-m", "-z", "-l"}, {}}[len(cases)%4]
				cases = append(cases, clitest.Case{Name: fmt.Sprintf("%s %s %v", a.name, dmg, opts), Args: append(opts, base)})
			}
		}
	}
	clitest.CompareDamaged(t, "pmlogcheck", runMain, cases)
}

// firstRecords is where the label and the n records after it end in b,
// a data volume's or metadata file's content (each record starts with
// its length), or in an index, the label and n entries; at most len(b).
func firstRecords(b []byte, suffix string, n int) int64 {
	off := int64(0)
	for i := 0; i <= n && off+4 <= int64(len(b)); i++ {
		l := int64(binary.BigEndian.Uint32(b[off:]))
		if suffix == ".index" && i > 0 {
			// the entries have no length of their own: v2's are 20
			// bytes, v3's 32 (the label says which by its length)
			l = 20
			if int64(binary.BigEndian.Uint32(b)) > 132 {
				l = 32
			}
		}
		if l < 8 || off+l > int64(len(b)) {
			break
		}
		off += l
	}
	return min(off+1, int64(len(b)))
}
