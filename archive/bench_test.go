package archive

import (
	"os"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// BenchmarkFetch reads every record of the largest QA archive, forwards,
// into one Result; b.N counts records.
func BenchmarkFetch(b *testing.B) {
	name := qaDir + "/20180102"
	if _, err := os.Stat(name + ".0"); err != nil {
		b.Skip("PCP's QA archives are not installed")
	}
	a, err := Open(name, Options{})
	if err != nil {
		b.Fatal(err)
	}
	r := a.NewReader()
	defer r.Close()
	var res pcp.Result
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := r.Fetch(&res); err != nil {
			r.SetMode(Forward, a.Label.Start)
		}
	}
}
