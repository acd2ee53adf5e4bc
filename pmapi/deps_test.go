package pmapi

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/godeps"
	"github.com/gopcp/gopcp/pcp"
)

// TestNoAgentFramework keeps a host or archive client from linking the
// agent framework: local contexts live in pmapi/local.
func TestNoAgentFramework(t *testing.T) {
	for _, pkg := range godeps.Of(t, ".") {
		if strings.HasPrefix(pkg, "github.com/gopcp/gopcp/pmda") || strings.HasPrefix(pkg, "github.com/gopcp/gopcp/agents") {
			t.Errorf("pmapi depends on %s", pkg)
		}
	}
}

// TestNewContextLocal: KindLocal is pmapi/local's to make.
func TestNewContextLocal(t *testing.T) {
	_, err := NewContext(context.Background(), KindLocal, "")
	if !errors.Is(err, pcp.ErrNoContext) {
		t.Errorf("NewContext(KindLocal) = %v, want pcp.ErrNoContext", err)
	}
}
