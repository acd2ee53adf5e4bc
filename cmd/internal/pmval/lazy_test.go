package pmval

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestReadLazilyAgainstPCP compares pmval with PCP's where interpolation
// reads an archive's records only as far as its fetches need: archives
// with <mark>s, gaps, instances that come and go and counters near their
// wrap, a few metrics of each, with sample counts that stop early, steps
// shorter and longer than the records' spacing, -S/-T windows inside
// the archive and near its end (read from an index entry before their
// start), -O, -r, and the default interval to the end.
func TestReadLazilyAgainstPCP(t *testing.T) {
	archives := []string{"interpmark", "gap", "gap2", "mark-bug", "20180102", "count-mark",
		"changeinst", "dyninsts", "20041125", "omnibus_v3", "pmiostat_mark", "uwrap"}
	var cases []clitest.Case
	for _, name := range archives {
		base := clitest.QAArchive(t, name)
		a, err := archive.Open(base, archive.Options{})
		if err != nil {
			t.Fatal(err)
		}
		names, _ := a.Meta.Traverse("")
		end, endErr := a.End()
		span := end.Sub(a.Label.Start)
		a.Close()
		if endErr != nil || len(names) == 0 {
			t.Fatalf("%s: end %v, %d names", name, endErr, len(names))
		}
		sec := func(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }
		opts := [][]string{
			{"-s", "3"},
			{"-s", "12", "-t", sec(span / 40)},
			{"-t", sec(span / 150)},
			{"-r", "-t", sec(span / 60)},
			{"-S", "+" + sec(span/3), "-T", "+" + sec(span/2), "-t", sec(span / 90)},
			{"-O", "+" + sec(span/4), "-s", "5", "-t", sec(span / 20)},
			// windows near the end, read from an index entry before
			// their start
			{"-S", "-" + sec(span/10), "-t", sec(span / 100)},
			{"-S", "+" + sec(span*0.7), "-T", "-" + sec(span/10), "-t", sec(span / 70)},
			{"-O", "-" + sec(span/5), "-s", "4", "-t", sec(span / 30)},
			{},
		}
		for i, m := range names {
			if i%max(len(names)/3, 1) != 0 {
				continue
			}
			for k, o := range opts {
				args := append(append([]string{"-a", base}, o...), m)
				cases = append(cases, clitest.Case{Name: fmt.Sprintf("%s %s %d", name, m, k), Args: args})
			}
		}
	}
	clitest.CompareLocal(t, "pmval", run, cases)
}
