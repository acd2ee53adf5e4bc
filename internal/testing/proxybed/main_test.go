package proxybed

import (
	"os"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }
