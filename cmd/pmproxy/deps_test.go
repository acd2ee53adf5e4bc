package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/godeps"
)

// TestNoToolFramework keeps pmproxy from linking what its command line
// and host contexts do not need: internal/cli (pmGetOptions for the
// tools) and through it PM_CONTEXT_LOCAL's in-process agents (pmapi/local,
// pmda, pmns/dynamic, the agents) and debug/elf and debug/dwarf. PCP's
// pmproxy reads its options with pmgetopt_r, and "local:" in its host
// specifications is pmcd's Unix socket, never a local context; what is
// linked is mapped and initialised at every start.
func TestNoToolFramework(t *testing.T) {
	const gopcp = "github.com/gopcp/gopcp/"
	for _, pkg := range godeps.Of(t, ".") {
		switch {
		case pkg == gopcp+"internal/cli", pkg == gopcp+"pmapi/local", pkg == gopcp+"pmda",
			pkg == gopcp+"pmns/dynamic", strings.HasPrefix(pkg, gopcp+"agents"),
			pkg == "debug/elf", pkg == "debug/dwarf":
			t.Errorf("pmproxy depends on %s", pkg)
		}
	}
}

// TestNoNetHTTP keeps net/http out of pmproxy: its handlers are on
// package httpd's own types, served by httpd. net/http would bring its
// client, crypto/tls, crypto/x509 and HTTP/2's tables, whose package
// initialisation alone maps pages at every start (1.2 MB of file-backed
// memory when they were linked). httpd/httpstd, the bridge to net/http
// for tests, must not come in either.
func TestNoNetHTTP(t *testing.T) {
	deps := godeps.Of(t, ".")
	served := false
	for _, pkg := range deps {
		served = served || pkg == "github.com/gopcp/gopcp/httpd"
		switch {
		case pkg == "net/http", strings.HasPrefix(pkg, "net/http/"),
			pkg == "crypto/tls", strings.HasPrefix(pkg, "crypto/tls/"),
			pkg == "crypto/x509", strings.HasPrefix(pkg, "crypto/x509/"),
			strings.Contains(pkg, "golang.org/x/net/http"),
			pkg == "github.com/gopcp/gopcp/httpd/httpstd":
			t.Errorf("pmproxy depends on %s", pkg)
		}
	}
	if !served {
		t.Errorf("pmproxy does not depend on httpd (%d packages listed)", len(deps))
	}
}

// TestCgoOnlyForNames: with cgo, the only packages of pmproxy that call C
// are net (getaddrinfo, for host names the system's name service answers
// beyond /etc/hosts and DNS), os/user (getpwnam, for -U's user, looked up
// once at start by a daemon) and runtime/cgo under them. So a build
// without cgo differs only in how those names are resolved;
// docs/pmproxy.md ("Built without cgo") says which names and why README
// installs pmproxy that way.
func TestCgoOnlyForNames(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the imports")
	}
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}", ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg != "net" && pkg != "os/user" && pkg != "runtime/cgo" {
			t.Errorf("%s calls C in pmproxy's build with cgo", pkg)
		}
	}
}
