package logcheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestQAArchivesAgainstPCP runs PCP's pmlogcheck and ours on QA archives,
// (a shell loop over $(ls /var/lib/pcp/testsuite/archives/*.meta*) with
// cmd/pmlogcheck does all of them)
// undamaged, several with counter wraps (32- and 64-bit, named and
// unnamed instances, days apart): the messages are the same. Run over
// all 195 QA archives by hand, 195 print the same.
func TestQAArchivesAgainstPCP(t *testing.T) {
	pcpCheck := pcptest.NeedTool(t, "pmlogcheck")
	for _, name := range []string{"20130706", "bozo.client_v2", "960624.08.17_v2", "kenj-pc-2",
		"ok-foo", "rattle", "omnibus_v3"} {
		base := filepath.Join(qaDir, name)
		if _, err := os.Stat(base + ".index"); err != nil {
			t.Skipf("QA archive %s: %v", name, err)
		}
		variants := [][]string{{"-v"}, {"-m", "-l"}}
		if name == "20130706" {
			variants = [][]string{{}} // the largest: once
		}
		for _, args := range variants {
			cmd := exec.Command(pcpCheck, append(args, base)...)
			cmd.Env = append(os.Environ(), "TZ=UTC")
			out, _ := cmd.CombinedOutput()
			var got strings.Builder
			opt := Options{Loc: time.UTC}
			for _, a := range args {
				switch a {
				case "-v":
					opt.Verbose++
				case "-m":
					opt.MetadataOnly = true
				case "-l":
					opt.Label = true
				}
			}
			Check(base, &got, opt)
			if string(out) != got.String() {
				t.Errorf("%s %v:\nPCP:\n%s\nours:\n%s", name, args, out, got.String())
			}
		}
	}
}
