//go:build explore

package derive

import (
	"os"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testbed"
)

// TestExplore keeps a private pmcd with sample running for manual
// experiments: go test -tags explore -run TestExplore ./derive/
func TestExplore(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	os.WriteFile("/tmp/B_host", []byte(p.Host()), 0o644)
	time.Sleep(100 * time.Minute)
}
