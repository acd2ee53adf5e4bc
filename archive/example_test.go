package archive_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

// An archive written as pmlogger writes it, then read back: every record,
// oldest first, into one reused Result, with the metric and instance
// names the metadata gives. (PCP 6.0.3's pmdumplog -a reads the same
// archive and prints the same values.)
func Example() {
	dir, err := os.MkdirTemp("", "archive-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	base := filepath.Join(dir, "20261128")
	load, indom := pcp.NewPMID(60, 2, 0), pcp.NewInDom(60, 2)

	w, err := archive.Create(base, archive.WriterOptions{Hostname: "web1", Timezone: "UTC", Zoneinfo: ":Etc/UTC"})
	if err != nil {
		log.Fatal(err)
	}
	t0 := pcp.Timestamp{Sec: 1795881600}
	must(w.Start(t0))
	data, meta := w.Offsets()
	must(w.PutIndex(t0, data, meta))
	must(w.PutDesc(pcp.Desc{PMID: load, Type: pcp.Type32, InDom: indom, Sem: pcp.SemInstant}, []string{"example.load"}))
	must(w.PutInDom(indom, &archive.InDom{Stamp: t0, Insts: []int32{1, 15}, Names: []string{"1 minute", "15 minute"}}, false))
	for i := range int32(3) {
		must(w.PutResult(&pcp.Result{
			Timestamp: pcp.Timestamp{Sec: t0.Sec + int64(i)*60},
			Sets: []pcp.ValueSet{{PMID: load, NumVal: 2, ValFmt: pcp.ValInSitu,
				Values: []pcp.Value{{Inst: 1, LVal: 10 + i}, {Inst: 15, LVal: 20 + i}}}},
		}))
	}
	must(w.Close())

	a, err := archive.Open(base, archive.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
	fmt.Println(a.Label.Hostname, a.Version())
	r := a.NewReader()
	defer r.Close()
	var res pcp.Result
	for {
		if err := r.Fetch(&res); err != nil {
			if !errors.Is(err, pcp.ErrEOL) {
				fmt.Println("damaged:", err)
			}
			break
		}
		for _, s := range res.Sets {
			names, _ := a.Meta.Names(s.PMID)
			d, _ := a.Meta.Desc(s.PMID)
			for _, v := range s.Values {
				inst, _ := a.Meta.NameInDom(d.InDom, v.Inst, res.Timestamp)
				fmt.Printf("%d %s[%s] %d\n", res.Timestamp.Sec-t0.Sec, names[0], inst, v.LVal)
			}
		}
	}
	// Output:
	// web1 3
	// 0 example.load[1 minute] 10
	// 0 example.load[15 minute] 20
	// 60 example.load[1 minute] 11
	// 60 example.load[15 minute] 21
	// 120 example.load[1 minute] 12
	// 120 example.load[15 minute] 22
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
