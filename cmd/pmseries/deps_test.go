package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoHTTP keeps pmseries from linking net/http and the TLS and
// certificate code it brings: pmseries serves nothing, and what those
// packages link and initialise costs every run's start-up (pmproxy's
// handlers are series/restapi's for that reason).
func TestNoHTTP(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the imports")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch {
		case pkg == "net/http", strings.HasPrefix(pkg, "net/http/"),
			pkg == "crypto/tls", pkg == "crypto/x509", pkg == "github.com/gopcp/gopcp/series/restapi":
			t.Errorf("pmseries depends on %s", pkg)
		}
	}
}
