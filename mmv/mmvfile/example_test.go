package mmvfile_test

import (
	"fmt"
	"log"
	"os"

	"github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/mmv/mmvfile"
)

// An MMV file read as pmdammv and mmvdump read it: written here by
// package mmv, then decoded within mmvfile's default limits, each value
// with its metric and instance and its bits as the file holds them.
func ExampleParse() {
	dir, err := os.MkdirTemp("", "mmvfile-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	r, err := mmv.New("shop", mmv.Options{Dir: dir})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	tills, err := r.AddInDom([]mmv.Instance{{ID: 1, Name: "front"}, {ID: 2, Name: "back"}}, mmv.InDomOptions{})
	if err != nil {
		log.Fatal(err)
	}
	sales, err := r.CounterVec("sales", tills, mmv.MetricOptions{})
	if err != nil {
		log.Fatal(err)
	}
	if err := r.Start(); err != nil {
		log.Fatal(err)
	}
	front, _ := sales.With("front")
	front.Add(42)

	b, err := os.ReadFile(r.Path())
	if err != nil {
		log.Fatal(err)
	}
	f, err := mmvfile.Parse(b, mmvfile.Limits{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("version", f.Version, "metrics", len(f.Metrics), "values", len(f.Values))
	names := map[uint64]string{}
	for _, m := range f.Metrics {
		names[uint64(m.Offset)] = m.Name
	}
	insts := map[uint64]string{}
	for _, in := range f.Instances {
		insts[uint64(in.Offset)] = in.External
	}
	for _, v := range f.Values {
		atom, _ := f.Value(v)
		fmt.Printf("%s[%s] %d\n", names[v.Metric], insts[v.Instance], atom)
	}
	// A file cut short is refused, not read past its end.
	_, err = mmvfile.Parse(b[:40], mmvfile.Limits{})
	fmt.Println(err)
	// Output:
	// version 1 metrics 1 values 2
	// sales[front] 42
	// sales[back] 0
	// malformed mmv file: at byte 40: TOC: 4 of 16 bytes at offset 40 outside 40 bytes
}
