package pmval

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestDamagedIndex runs pmval -a over copies of QA archives whose
// temporal index or metadata is damaged, each run of ours bounded, and
// compares it with PCP's pmval: an entry naming a volume that does not
// exist (pmval once ran on for ever there, growing by 500 MB in 10 s), a
// data offset inside a record or past its volume's end, an entry moved
// out of time order, semantics no metric has.
func TestDamagedIndex(t *testing.T) {
	word := func(entry, field int64, w uint32, what string) clitest.Damage {
		// version 2: entries of 20 bytes after the 132-byte label
		return clitest.Damage{Suffix: ".index", Kind: "word", Off: 132 + 20*entry + field, Word: w, What: what}
	}
	cases := []struct {
		src  string
		dmg  clitest.Damage
		args []string
	}{
		{"20041125", word(0, 8, 7, "vol"), []string{"-t", "60", "-s", "5", "kernel.all.load"}},
		{"20041125", word(3, 8, 7, "vol"), []string{"-t", "5min", "-S", "+20min", "kernel.all.load"}},
		{"20041125", word(6, 8, 0xffffffff, "vol"), []string{"-t", "10min", "swap.pagesin"}},
		{"ok-mv-bar", word(0, 8, 9, "vol"), []string{"-t", "0.5", "sampledso.milliseconds"}},
		{"gap", word(0, 16, 0xd31, "data"), []string{"-t", "2.5", "-S", "+2.5", "proc.nprocs"}},
		{"ok-mv-bar", word(0, 16, 0xd9d1, "data"), []string{"-t", "0.2", "-r", "sampledso.milliseconds"}},
		{"uwrap", word(1, 0, 0x42c3a596, "time"), []string{"-t", "1", "-S", "+1", "sample.wrap.ulong"}},
		{"uwrap", word(1, 0, 0x42c3a987, "time"), []string{"-t", "7", "-S", "+7", "-r", "sample.wrap.ulong"}},
		{"rattle", clitest.Damage{Suffix: ".meta", Kind: "byte", Off: 470, Xor: 0x18}, []string{"-t", "20m", "irix.kernel.all.load"}},
	}
	var runs []clitest.Case
	for _, tc := range cases {
		orig := clitest.QAArchive(t, tc.src)
		base := clitest.CopyDamaged(t, orig, t.TempDir(), tc.dmg)
		runs = append(runs, clitest.Case{
			Name: tc.src + " " + tc.dmg.String(),
			Args: append([]string{"-a", base}, tc.args...),
		})
	}
	clitest.CompareDamaged(t, "pmval", run, runs)
}
