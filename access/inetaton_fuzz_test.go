package access

import (
	"net"
	"strings"
	"testing"
)

// FuzzInetAton reads fuzzed host names as numeric IPv4 hosts: an address
// taken is four bytes, comes from at most four dot-separated numbers,
// and a plain dotted quad reads as net.ParseIP reads it.
// TestInetAtonAsGlibc compares the answers with glibc's.
func FuzzInetAton(f *testing.F) {
	for _, s := range []string{"127.1", "0x7f.1", "1.2.3", "017700000001", "08", "0x", "1..2", "4294967296"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		ip, ok := inetAton(name)
		if !ok {
			if ip != nil {
				t.Fatalf("inetAton(%q) refused with %v", name, ip)
			}
			return
		}
		if len(ip) != 4 || strings.Count(name, ".") > 3 {
			t.Fatalf("inetAton(%q) = %v", name, ip)
		}
		if p := net.ParseIP(name); p != nil && !p.Equal(ip) {
			t.Fatalf("inetAton(%q) = %v, net.ParseIP %v", name, ip, p)
		}
	})
}
