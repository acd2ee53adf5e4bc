package linux

import (
	"strings"
	"testing"
)

// TestFamilyHelpSpecific checks that every metric has help, and that no
// two metrics of the table-driven families (vmstat, zoneinfo, the SNMP
// tables) share a one-line help.
func TestFamilyHelpSpecific(t *testing.T) {
	h, err := help()
	if err != nil {
		t.Fatal(err)
	}
	seen := make(map[string]string)
	for i := range pcpDescs {
		n := pcpDescs[i].Name
		one, full, _ := h.Text(pcpDescs[i].desc(Domain).PMID)
		if one == "" || full == "" {
			t.Errorf("%s: no help", n)
			continue
		}
		if other, ok := seen[one]; ok && familyOf(n) != "" {
			t.Errorf("%s and %s share the one-line help %q", other, n, one)
		}
		seen[one] = n
	}
}

// familyOf names the table-driven family of a metric, or "".
func familyOf(name string) string {
	for _, f := range []string{"mem.vmstat.", "mem.zoneinfo."} {
		if strings.HasPrefix(name, f) {
			return f
		}
	}
	rest, ok := strings.CutPrefix(name, "network.")
	if !ok {
		return ""
	}
	group, field, _ := strings.Cut(rest, ".")
	switch group {
	case "ip", "ip6", "icmp", "icmp6", "udp", "udp6", "udplite", "udplite6", "tcp", "mptcp":
		if !strings.Contains(field, ".") {
			return "network."
		}
	}
	return ""
}
