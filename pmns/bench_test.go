package pmns

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

func BenchmarkLoadSystem(b *testing.B) {
	for _, mode := range []struct {
		name string
		opts Options
	}{{"cpp", Options{}}, {"nocpp", Options{NoCPP: true}}} {
		b.Run(mode.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := LoadWith(systemRoot, mode.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func benchTree(b *testing.B) (*Tree, []string) {
	tree, err := LoadWith(systemRoot, Options{NoCPP: true})
	if err != nil {
		b.Fatal(err)
	}
	names, err := tree.Traverse("")
	if err != nil {
		b.Fatal(err)
	}
	return tree, names
}

func BenchmarkLookup(b *testing.B) {
	tree, names := benchTree(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := tree.Lookup(names[i%len(names)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkLookupParallel(b *testing.B) {
	tree, names := benchTree(b)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, err := tree.Lookup(names[i%len(names)]); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
}

func BenchmarkLookupDynamic(b *testing.B) {
	tree, _ := benchTree(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tree.Lookup("proc.psinfo.pid"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNameID(b *testing.B) {
	tree, names := benchTree(b)
	pmids := make([]uint32, 0, len(names))
	for _, n := range names {
		pmid, _ := tree.Lookup(n)
		if !IsDynamicRoot(pmid) {
			pmids = append(pmids, uint32(pmid))
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := tree.NameID(pcpPMID(pmids[i%len(pmids)])); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkTraverseAll(b *testing.B) {
	tree, _ := benchTree(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tree.Traverse(""); err != nil {
			b.Fatal(err)
		}
	}
}

func pcpPMID(v uint32) pcp.PMID { return pcp.PMID(v) }
