package pmapi

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzPortList reads fuzzed PMCD_PORT values. A list accepted has one
// non-negative port per comma-separated field; printed back in decimal,
// or with white space before each field that has digits (C's strtol
// leaves an end at the field's start when it has none), it reads the
// same; a list with a field refused is refused whole.
func FuzzPortList(f *testing.F) {
	for _, s := range []string{"44321", "44321,4321", " 0x10, 010,+5", "", ",", "-1", "4294967297", "0x", "1 ", "9999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ports, ok := parsePortList(s)
		fields := strings.Split(s, ",")
		if !ok {
			if ports != nil {
				t.Fatalf("parsePortList(%q) refused with ports %v", s, ports)
			}
			return
		}
		if len(ports) != len(fields) {
			t.Fatalf("parsePortList(%q) = %v for %d fields", s, ports, len(fields))
		}
		text := make([]string, len(ports))
		for i, p := range ports {
			if p < 0 {
				t.Fatalf("parsePortList(%q) = %v", s, ports)
			}
			text[i] = strconv.Itoa(p)
		}
		again, ok := parsePortList(strings.Join(text, ","))
		if !ok || !slices.Equal(again, ports) {
			t.Fatalf("parsePortList(%q) = %v, printed back %v", s, ports, again)
		}
		for i, f := range fields {
			if f != "" {
				fields[i] = " \t" + f
			}
		}
		again, ok = parsePortList(strings.Join(fields, ","))
		if !ok || !slices.Equal(again, ports) {
			t.Fatalf("parsePortList(%q) = %v, spaced %v", s, ports, again)
		}
	})
}
