package main

import (
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/godeps"
)

// TestNoHTTP keeps pmseries from linking net/http and the TLS and
// certificate code it brings: pmseries serves nothing, and what those
// packages link and initialise costs every run's start-up (pmproxy's
// handlers are series/restapi's for that reason).
func TestNoHTTP(t *testing.T) {
	for _, pkg := range godeps.Of(t, ".") {
		switch {
		case pkg == "net/http", strings.HasPrefix(pkg, "net/http/"),
			pkg == "crypto/tls", pkg == "crypto/x509", pkg == "github.com/gopcp/gopcp/series/restapi":
			t.Errorf("pmseries depends on %s", pkg)
		}
	}
}
