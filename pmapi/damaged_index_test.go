package pmapi

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// damagedIndexes are temporal index entries rewritten to name places
// that do not exist: a volume past the last (the first, a middle and the
// last entry), a negative volume, an offset past the volume's end, a
// negative offset, one inside the label, and a time out of order. The
// offsets are those of 20041125 (version 2, entries of 20 bytes after a
// 132-byte label: the time at 0, the volume at 8, the offsets at 12 and
// 16) and ok-mv-bar (three volumes).
var damagedIndexes = []struct {
	name, src string
	dmg       clitest.Damage
	// unlike is a walk ours answers unlike libpcp, with the reason
	// (docs/damaged-archives.md, "Left alone")
	unlike, why string
}{
	{name: "first-vol7", src: "20041125", dmg: indexWord(0, 8, 7, "vol")},
	{name: "second-vol7", src: "20041125", dmg: indexWord(1, 8, 7, "vol")},
	{name: "middle-vol7", src: "20041125", dmg: indexWord(3, 8, 7, "vol")},
	{name: "last-vol7", src: "20041125", dmg: indexWord(6, 8, 7, "vol"), unlike: "interp -37000000000",
		why: "backwards from the end, libpcp's placing fails and later fetches have no values"},
	{name: "middle-vol-1", src: "20041125", dmg: indexWord(3, 8, 0xffffffff, "vol")},
	{name: "middle-data-past", src: "20041125", dmg: indexWord(3, 16, 999999, "data")},
	{name: "middle-data-neg", src: "20041125", dmg: indexWord(3, 16, 0xffffffff, "data")},
	{name: "middle-data-label", src: "20041125", dmg: indexWord(3, 16, 40, "data")},
	{name: "middle-time-zero", src: "20041125", dmg: indexWord(3, 0, 0, "time")},
	// uwrap's last entry moved before the start: pmSetMode puts
	// forward interpolation at the end of the data
	{name: "uwrap-last-time-early", src: "uwrap", dmg: indexWord(1, 0, 0x42c3a596, "time")},
	{name: "okmv-first-vol9", src: "ok-mv-bar", dmg: indexWord(0, 8, 9, "vol")},
	{name: "okmv-second-vol9", src: "ok-mv-bar", dmg: indexWord(1, 8, 9, "vol")},
	{name: "okmv-vol-swap", src: "ok-mv-bar", dmg: indexWord(2, 8, 0, "vol")},
	// the first entry's data offset past volume 0's end: reading
	// backwards from there libpcp goes on into volume 1 and fails
	{name: "okmv-first-data-past", src: "ok-mv-bar", dmg: indexWord(0, 16, 0xd9d1, "data")},
	{name: "okmv-third-data-past", src: "ok-mv-bar", dmg: indexWord(2, 16, 5000, "data")},
	// irix.kernel.all.load's semantics become 0x18000003, none a
	// metric has: libpcp interpolates it as a counter
	{name: "rattle-meta-sem", src: "rattle", dmg: clitest.Damage{Suffix: ".meta", Kind: "byte", Off: 470, Xor: 0x18}},
	// sample.bin's type becomes 143: its in-situ values do not suit
	// it, and libpcp's interpolation fails reading them
	{name: "changeinst-meta-type", src: "changeinst", dmg: clitest.Damage{Suffix: ".meta", Kind: "byte", Off: 742, Xor: 0x8e}},
}

func indexWord(entry, field int64, word uint32, what string) clitest.Damage {
	return clitest.Damage{Suffix: ".index", Kind: "word", Off: 132 + 20*entry + field, Word: word, What: what}
}

// TestDamagedIndexBounded reads archives whose temporal index names
// volumes, offsets and times that are not there (and one whose metadata
// gives semantics no metric has), in every mode, each
// walk bounded in time and memory (an index entry naming a missing
// volume once sent interpolation round one loop for ever, growing by
// 500 MB in 10 s). Where PCP is installed each walk is compared with
// libpcp's.
func TestDamagedIndexBounded(t *testing.T) {
	t.Setenv("PCP_DERIVED_CONFIG", "")
	var harness string
	if _, err := exec.LookPath("pminfo"); err == nil || pcptest.Required() {
		harness = pcptest.Harness(t, "testdata/harness/archwalk.c")
	}
	sources := map[string]damagedSource{
		"20041125":   {[]string{"kernel.all.load", "swap.pagesin"}, 37 * time.Second},
		"ok-mv-bar":  damagedSources["ok-mv-bar"],
		"rattle":     {[]string{"irix.kernel.all.load"}, 20 * time.Minute},
		"uwrap":      damagedSources["uwrap"],
		"changeinst": damagedSources["changeinst"],
	}
	for _, tc := range damagedIndexes {
		t.Run(tc.name, func(t *testing.T) {
			orig := clitest.QAArchive(t, tc.src)
			base := clitest.CopyDamaged(t, orig, t.TempDir(), tc.dmg)
			for _, args := range damagedWalks(sources[tc.src]) {
				line := "archwalk " + strings.Join(args, " ")
				var got string
				var ok bool
				clitest.Bounded(t, tc.name+": "+line, clitest.BoundTime, clitest.BoundHeap, func() {
					got, ok = walkDamaged(t, base, args)
				})
				if strings.Contains(got, "ERR -1\n") {
					t.Errorf("%s: an error without a PCP code:\n%s", line, got)
				}
				if !ok || harness == "" {
					continue
				}
				if tc.unlike != "" && strings.HasPrefix(strings.Join(args, " "), tc.unlike) {
					t.Logf("not compared: %s: %s", line, tc.why)
					continue
				}
				want, ok := runArchwalk(harness, base, args)
				if !ok {
					t.Logf("libpcp fails: %s", line)
					continue
				}
				if got != want {
					t.Errorf("%s differs from libpcp's\n%s", line, clitest.Diff(want, got))
				}
			}
		})
	}
}
