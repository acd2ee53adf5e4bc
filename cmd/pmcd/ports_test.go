package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestPortsLikePCP gives PCP's pmcd and ours a second request port as
// libpcp reads one (strtol with base 0, the int it makes), above 65535:
// each binds its low 16 bits and shows it whole in the log's table of
// request ports; the statuses, ports and families are the same, with
// and without -i addresses.
func TestPortsLikePCP(t *testing.T) {
	t.Parallel()
	portRow := regexp.MustCompile(`(?m)^  (ok|err)\s+-?\d+\s+(\d+) (inet|ipv6)\s+(.*)$`)
	table := func(start func(testing.TB, testbed.Options) *testbed.PMCD, extra ...string) string {
		free, release, err := testbed.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		// Held until the daemon has exited (its cleanup, registered
		// after this one, runs first), or another run may take it.
		t.Cleanup(release)
		spec := "0x" + strconv.FormatInt(int64(free)+3*65536, 16)
		p := start(t, testbed.Options{Args: append([]string{"-p", spec}, extra...)})
		var rows []string
		for _, m := range portRow.FindAllStringSubmatch(waitLog(t, p, "pmcd request port(s)"), -1) {
			port := m[2]
			switch port {
			case strconv.Itoa(p.Port()):
				port = "BED"
			case strconv.Itoa(free + 3*65536):
				port = "GIVEN+3*65536"
			}
			rows = append(rows, strings.Join([]string{m[1], port, m[3], m[4]}, " "))
		}
		return strings.Join(rows, "\n")
	}
	want := table(testbed.StartPMCD)
	got := table(testbed.StartGoPMCD)
	if got != want || !strings.Contains(want, "ok GIVEN+3*65536 inet") {
		t.Errorf("request ports:\nPCP's:\n%s\nours:\n%s", want, got)
	}
	// -i addresses are tried in both families: the other family's row
	// fails, and a name (not a numeric address) fails in both.
	iface := []string{"-i", "127.0.0.1", "-i", "::1", "-i", "localhost"}
	want = table(testbed.StartPMCD, iface...)
	got = table(testbed.StartGoPMCD, iface...)
	if got != want || !strings.Contains(want, "err BED ipv6 127.0.0.1") {
		t.Errorf("request ports with %q:\nPCP's:\n%s\nours:\n%s", iface, want, got)
	}
}
