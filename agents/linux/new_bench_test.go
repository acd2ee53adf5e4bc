package linux

import (
	"testing"
)

// BenchmarkNew builds the agent as a local context's companion does at
// every start: its cost is paid by each pminfo -L.
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		a, err := New(Domain, Options{})
		if err != nil {
			b.Fatal(err)
		}
		_ = a.Close()
	}
}

// TestDescsSorted checks that PCP's rows are sorted by name, as findDesc
// searches them.
func TestDescsSorted(t *testing.T) {
	for i := 1; i < len(pcpDescs); i++ {
		if pcpDescs[i-1].Name >= pcpDescs[i].Name {
			t.Fatalf("pcpDescs not sorted: %q before %q", pcpDescs[i-1].Name, pcpDescs[i].Name)
		}
	}
}
