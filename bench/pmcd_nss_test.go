package bench

import (
	"os"
	"os/exec"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// nssCall matches the C functions through which a Go program built with
// cgo asks the system's name service (NSS) for a host, user or group:
// net's getaddrinfo, getnameinfo and res_search, os/user's getpw*,
// getgr* and getgrouplist. The linker keeps a cgo stub only when some
// code can reach it, so a binary without one never asks NSS.
var nssCall = regexp.MustCompile(`_Cfunc_(getaddrinfo|getnameinfo|res_search|mygetpw|mygetgr|getgrouplist)`)

// TestDaemonsCgoOnlyForNSS keeps README's "Install it" true for the
// collector's daemons (pmcd, pmlogger and the agents): a daemon installed
// with CGO_ENABLED=0 must be one whose build with cgo would never call
// the name service (so that leaving libc out loses it nothing), and one
// installed with cgo must be one that can (so that keeping libc and its
// loader, 1.5 MiB resident, buys something). Each daemon is built with
// cgo and its symbols read.
func TestDaemonsCgoOnlyForNSS(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to build the daemons")
	}
	// The cgo builds need the C compiler the go tool would use.
	cc, err := exec.Command("go", "env", "CC").Output()
	if err != nil {
		t.Fatalf("go env CC: %v", err)
	}
	if _, err := exec.LookPath(strings.TrimSpace(string(cc))); err != nil {
		pcptest.Missing(t, "no C compiler ("+strings.TrimSpace(string(cc))+") to build the daemons with cgo")
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	noCgo, withCgo := installLines(string(readme))
	if len(noCgo) == 0 || len(withCgo) == 0 {
		t.Fatalf("README's \"Install it\" has no CGO_ENABLED=0 go install (%v) or no plain one (%v)", noCgo, withCgo)
	}
	check := func(cmds []string, wantNSS bool) {
		for _, c := range cmds {
			name := path.Base(c)
			if !isCollectorDaemon(name) {
				continue // the client tools and pmproxy have tests of their own
			}
			bin := pcptest.GoCommandWith(t, "../cmd/"+name, pcptest.Build{Env: []string{"CGO_ENABLED=1"}})
			out, err := exec.Command("go", "tool", "nm", bin).Output()
			if err != nil {
				t.Fatalf("go tool nm %s: %v", name, err)
			}
			calls := map[string]bool{}
			for _, m := range nssCall.FindAllStringSubmatch(string(out), -1) {
				calls[m[1]] = true
			}
			switch {
			case wantNSS && len(calls) == 0:
				t.Errorf("%s is installed with cgo, but its cgo build never calls the name service: install it with CGO_ENABLED=0", name)
			case !wantNSS && len(calls) > 0:
				t.Errorf("%s is installed with CGO_ENABLED=0, but its cgo build calls the name service (%v): install it with cgo", name, calls)
			default:
				t.Logf("%s: name service calls with cgo %v", name, calls)
			}
		}
	}
	check(noCgo, false)
	check(withCgo, true)
}

// isCollectorDaemon says whether command name is pmcd, pmlogger or an
// agent: pmdaNAME with its agent in agents/NAME (pmdaconf is a tool).
func isCollectorDaemon(name string) bool {
	if name == "pmcd" || name == "pmlogger" {
		return true
	}
	agent, ok := strings.CutPrefix(name, "pmda")
	if !ok {
		return false
	}
	_, err := os.Stat("../agents/" + agent)
	return err == nil
}

// installLines reads the two go install commands of README's "Install
// it" (backslash-continued lines), the one with CGO_ENABLED=0 and the
// one without, and returns the packages each installs.
func installLines(readme string) (noCgo, withCgo []string) {
	_, sec, ok := strings.Cut(readme, "## Install it")
	if !ok {
		return nil, nil
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	joined := strings.ReplaceAll(sec, "\\\n", " ")
	for l := range strings.Lines(joined) {
		f := strings.Fields(l)
		cgo := true
		if len(f) > 0 && f[0] == "CGO_ENABLED=0" {
			cgo, f = false, f[1:]
		}
		if len(f) < 2 || f[0] != "go" || f[1] != "install" {
			continue
		}
		for _, p := range f[2:] {
			if !strings.HasPrefix(p, "./cmd/") {
				continue
			}
			if cgo {
				withCgo = append(withCgo, p)
			} else {
				noCgo = append(noCgo, p)
			}
		}
	}
	return noCgo, withCgo
}
