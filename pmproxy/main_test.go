package pmproxy

import (
	"os"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/internal/testing/tlstest"
)

func TestMain(m *testing.M) {
	tlstest.MainIfCompanion()
	os.Exit(testbed.Main(m))
}
