package derive

import "testing"

// BenchmarkLoadDefaults is what every tool run pays for PCP's default
// derived metrics when its first context is made.
func BenchmarkLoadDefaults(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		NewRegistry().LoadDefaults("", false)
	}
}
