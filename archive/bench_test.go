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

// BenchmarkLoadMeta parses whole metadata files of QA archives already in
// memory, as Open does: descriptors and names, instance domains, label
// sets and help text; b.N counts files, bytes are the files' sizes.
func BenchmarkLoadMeta(b *testing.B) {
	for _, name := range []string{"bozo-20170904", "20180102", "pcp-zeroconf", "omnibus_v3"} {
		data, err := os.ReadFile(qaDir + "/" + name + ".meta")
		if err != nil {
			b.Skip("PCP's QA archives are not installed")
		}
		l, err := DecodeLabel(data)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := loadMeta(data, l.Version()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
