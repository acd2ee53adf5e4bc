package cli

import (
	"testing"

	"github.com/gopcp/gopcp/internal/getopt"
)

// TestSameAsGetopt checks that the options cli writes out again are
// getopt's own.
func TestSameAsGetopt(t *testing.T) {
	for _, c := range []struct {
		name      string
		cli, want Option
	}{
		{"OptDebug", OptDebug, getopt.OptDebug},
		{"OptDebugFlag", OptDebugFlag, getopt.OptDebugFlag},
		{"OptVersion", OptVersion, getopt.OptVersion},
		{"OptHelp", OptHelp, getopt.OptHelp},
	} {
		if c.cli != c.want {
			t.Errorf("%s: %+v, getopt has %+v", c.name, c.cli, c.want)
		}
	}
}
