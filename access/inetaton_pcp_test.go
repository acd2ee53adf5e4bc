package access_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// numericHosts are host names of [access] that glibc may read as IPv4
// addresses in its shorthand forms.
var numericHosts = []string{
	"1.2.3.4", "127.1", "1.2.3", "0x7f.1", "0x7f000001", "2130706433", "017700000001", "0177.0.0.01",
	"1.0x10.3", "0x", "0x.0x.0x.0x", "08", "1.2.3.4.5", "300.1.1.1", "1.300.1", "1.2.65535",
	"1.2.65536", "4294967295", "4294967296", "1..2", "1.2.", ".1", "1.2.3.4 ", "0xg", "1e3",
	"0X1.0X2", "-1", "+1", "255.255.255.255", "1.16777215", "1.16777216",
}

// TestInetAtonAsGlibc reads each of numericHosts as getaddrinfo does
// (through a small C program) and with ours: the same address, or
// neither an address.
func TestInetAtonAsGlibc(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "numerichost")
	pcptest.Compile(t, pcptest.C{Src: "testdata/numerichost.c", Out: bin, Libs: []string{}})
	out, err := exec.Command(bin, numericHosts...).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(want) != len(numericHosts) {
		t.Fatalf("numerichost: %q", out)
	}
	for i, name := range numericHosts {
		got := "-"
		if ip, ok := access.InetAton(name); ok {
			got = ip.String()
		}
		if got != want[i] {
			t.Errorf("%q: getaddrinfo %s, ours %s", name, want[i], got)
		}
	}
}

var pmcdLogPrefix = regexp.MustCompile(`^\[[^]]*\] pmcd\(\d+\) `)

// TestNumericHostAsPCP puts shorthand IPv4 hosts and names that do not
// resolve in PCP's pmcd's [access] and in ours: PCP's pmcd logs the same
// messages about them as Parse gives.
func TestNumericHostAsPCP(t *testing.T) {
	testbed.Need(t)
	text := []string{"allow 127.1 : all;", "allow 0x7f.1 : fetch;", "allow 1.2.3 : all;",
		"allow nosuchhost.invalid : all;", "allow 08 : all;", "allow localhost : all;"}
	bed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent()}, Access: strings.Join(text, "\n")})
	b, err := os.ReadFile(bed.LogPath())
	if err != nil {
		t.Fatal(err)
	}
	var pcpSays []string
	for _, l := range strings.Split(string(b), "\n") {
		l = pmcdLogPrefix.ReplaceAllString(l, "")
		if strings.Contains(l, "config[line") || strings.Contains(l, "__pmGetAddrInfo") || strings.Contains(l, "following access") {
			pcpSays = append(pcpSays, l)
		}
	}
	conf, err := os.ReadFile(bed.ConfPath())
	if err != nil {
		t.Fatal(err)
	}
	// The bed's pmcd.conf numbers the [access] lines.
	start := 0
	for i, l := range strings.Split(string(conf), "\n") {
		if l == text[0] {
			start = i + 1
		}
	}
	a := access.New(access.Options{Ops: access.OpAll})
	ours, _ := a.Parse(text, start, start+len(text), "pmcd")
	if strings.Join(ours, "\n") != strings.Join(pcpSays, "\n") {
		t.Errorf("PCP's pmcd logs:\n%s\nours:\n%s", strings.Join(pcpSays, "\n"), strings.Join(ours, "\n"))
	}
	// The addresses kept: PCP's host access list, as its log shows it.
	log := string(b)
	i, j := strings.Index(log, "Host access list:"), strings.Index(log, "User access list")
	if i < 0 || j < i {
		t.Fatalf("no host access list in PCP's pmcd's log:\n%s", log)
	}
	if pcpList, ourList := strings.TrimSpace(log[i:j]), strings.TrimSpace(a.DumpHosts()); pcpList != ourList {
		t.Errorf("PCP's pmcd's host access list:\n%s\nours:\n%s", pcpList, ourList)
	}
}
