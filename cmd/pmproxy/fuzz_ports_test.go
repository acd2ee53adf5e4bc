package main

import (
	"strings"
	"testing"
)

// FuzzParsePorts reads fuzzed -p and PMPROXY_PORT lists: a list taken
// has one port per comma-separated field, each one a TCP port (0, the
// system's choice, to 65535); a list with any other field is refused
// whole. TestParsePortsAsLibpcp compares the answers with libpcp's.
func FuzzParsePorts(f *testing.F) {
	for _, s := range []string{"44322", "44322,44323", " 80 , 81", "0", "65536", "-1", "", ",", "0x10", "1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ports, ok := parsePorts(s)
		if !ok {
			if ports != nil {
				t.Fatalf("parsePorts(%q) refused with %v", s, ports)
			}
			return
		}
		s, _, _ = strings.Cut(s, "\x00")
		if len(ports) != len(strings.Split(s, ",")) {
			t.Fatalf("parsePorts(%q) = %v", s, ports)
		}
		for _, p := range ports {
			if p < 0 || p > 65535 {
				t.Fatalf("parsePorts(%q) = %v", s, ports)
			}
		}
	})
}
