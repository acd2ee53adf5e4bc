package pmapi

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// FuzzParseHostSpec parses fuzzed host specifications. A refusal is a
// HostSpecError wrapping PM_ERR_GENERIC that points inside the text, or
// (a bad attribute) another of PCP's codes. A specification parsed and
// printed back as libpcp unparses it (HostSpec.String) parses again to
// the same kind, hosts, ports and attributes and prints the same, unless
// a host name holds a bracket or a character only brackets protect other
// than ':', which libpcp's unparsing does not survive either; its text up to any NUL gives the same; nothing parsed is
// larger than the text.
func FuzzParseHostSpec(f *testing.F) {
	for _, s := range hostSpecs {
		f.Add(s)
	}
	f.Add("pcps://[::1]:1,2,3@[fe80::1]:4?container=a%26b&user=x&compress")
	f.Add("local://var/run/pcp/pmcd.socket?exclusive")
	f.Fuzz(func(t *testing.T, spec string) {
		hs, err := ParseHostSpec(spec)
		if err != nil {
			var se *HostSpecError
			if !errors.As(err, &se) {
				var pe pcp.Error
				if !errors.As(err, &pe) {
					t.Fatalf("ParseHostSpec(%q): %v carries no PCP code", spec, err)
				}
				return
			}
			if !errors.Is(err, pcp.ErrGeneric) {
				t.Fatalf("ParseHostSpec(%q): %v is not PM_ERR_GENERIC", spec, err)
			}
			if se.Pos < 0 || se.Pos > len(spec) || se.Report() == "" {
				t.Fatalf("ParseHostSpec(%q): error at %d of %d", spec, se.Pos, len(spec))
			}
			return
		}
		size, ports := 0, 0
		for _, h := range hs.Hosts {
			size += len(h.Name)
			ports += len(h.Ports)
		}
		for _, v := range hs.Attrs {
			size += len(v)
		}
		if size > len(spec)+len(DefaultSocketPath()) || ports > len(spec) {
			t.Fatalf("ParseHostSpec(%q): %d bytes and %d ports", spec, size, ports)
		}
		if len(hs.Hosts) == 0 {
			return
		}
		for _, h := range hs.Hosts {
			if strings.ContainsAny(h.Name, "[]@/?") {
				return // libpcp prints "[[]" as "[" and "[/]" as "/"
			}
		}
		text := hs.String()
		again, err := ParseHostSpec(text)
		if err != nil {
			t.Fatalf("ParseHostSpec(%q) printed %q, which fails: %v", spec, text, err)
		}
		if again.Kind != hs.Kind || !slices.EqualFunc(again.Hosts, hs.Hosts, func(a, b Host) bool {
			return a.Name == b.Name && slices.Equal(a.Ports, b.Ports)
		}) || !maps.Equal(again.Attrs, hs.Attrs) {
			t.Fatalf("ParseHostSpec(%q) = %+v, printed %q, parsed again %+v", spec, hs, text, again)
		}
		if again.String() != text {
			t.Fatalf("%q printed %q then %q", spec, text, again.String())
		}
		if i := strings.IndexByte(spec, 0); i >= 0 {
			// a C string ends at its NUL
			if c, err := ParseHostSpec(spec[:i]); err != nil || c.String() != text {
				t.Fatalf("%q printed %q, its text before the NUL %v, %v", spec, text, c, err)
			}
		}
	})
}
