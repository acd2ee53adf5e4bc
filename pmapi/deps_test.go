package pmapi

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestNoAgentFramework keeps a host or archive client from linking the
// agent framework: local contexts live in pmapi/local.
func TestNoAgentFramework(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the imports")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
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
