package main

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// libpcpPorts runs testdata/addports.c's program on s: libpcp's count of
// the ports read (negative when the list is refused) and the request
// ports it sets up from them.
func libpcpPorts(t *testing.T, bin, s string) (int, []int) {
	t.Helper()
	out, err := exec.Command(bin, s).Output()
	if err != nil {
		t.Fatalf("addports %q: %v", s, err)
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		t.Fatalf("addports %q: no answer", s)
	}
	n, err := strconv.Atoi(f[0])
	if err != nil {
		t.Fatalf("addports %q: %q", s, out)
	}
	var ports []int
	for _, ap := range f[1:] {
		p, err := strconv.Atoi(ap[strings.LastIndexByte(ap, ':')+1:])
		if err != nil {
			t.Fatalf("addports %q: %q", s, out)
		}
		ports = append(ports, p)
	}
	return n, ports
}

// TestParsePortsAsLibpcp reads -p lists with libpcp's __pmAddPorts (what
// PCP's pmproxy reads -p and PMPROXY_PORT with) and ours: both refuse a
// list or both take as many ports, and each element alone is the port
// libpcp sets up, cut to the 16 bits PCP's pmproxy binds.
func TestParsePortsAsLibpcp(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "addports")
	pcptest.Compile(t, pcptest.C{Src: "testdata/addports.c", Out: bin})
	for _, s := range []string{
		"44322", "1,2, 3", " 0x10", "\t010", "0x10 ", "", ",", "0", "70000", "0x1b3a5", "-1", "-0",
		"+5", "4294967297", "2147483648", "99999999999999999999", "x", "1,x", "1,,2", "0x", "08",
		"1e3", "5:6",
	} {
		n, _ := libpcpPorts(t, bin, s)
		ours, ok := parsePorts(s)
		if (n > 0) != ok || ok && len(ours) != n {
			t.Errorf("%q: libpcp read %d ports, ours %v %v", s, n, ours, ok)
			continue
		}
		for i, f := range strings.Split(s, ",") {
			if !ok {
				break
			}
			_, one := libpcpPorts(t, bin, f)
			if len(one) != 1 || ours[i] != int(uint16(one[0])) {
				t.Errorf("%q: element %q is libpcp's port %v, ours %d", s, f, one, ours[i])
			}
		}
	}
}
