package archive_test

import (
	"errors"
	"fmt"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

// Reading every record of an archive, oldest first, into one reused
// Result, with the metric names and instance names the metadata gives.
// (With PCP's QA archives installed this prints
// "mortenb.oslo.sgi.com 2 50 true".)
func Example() {
	a, err := archive.Open("/var/lib/pcp/testsuite/archives/20041125", archive.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := a.NewReader()
	defer r.Close()
	var res pcp.Result
	n := 0
	for {
		if err := r.Fetch(&res); err != nil {
			if !errors.Is(err, pcp.ErrEOL) {
				fmt.Println("damaged:", err)
			}
			break
		}
		n++
		if n > 1 {
			continue
		}
		for _, s := range res.Sets {
			names, _ := a.Meta.Names(s.PMID)
			d, _ := a.Meta.Desc(s.PMID)
			for _, v := range s.Values {
				inst := ""
				if d.InDom != pcp.InDom(0xffffffff) {
					inst, _ = a.Meta.NameInDom(d.InDom, v.Inst, res.Timestamp)
				}
				_ = inst
			}
			_ = names
		}
	}
	end, _ := a.End()
	fmt.Println(a.Label.Hostname, a.Version(), n, end.Sec >= a.Label.Start.Sec)
}
