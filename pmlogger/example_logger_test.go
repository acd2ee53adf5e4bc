package pmlogger_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	_ "github.com/gopcp/gopcp/agents/all" // registers the in-process agents
	"github.com/gopcp/gopcp/agents/sample"
	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi/local"
	"github.com/gopcp/gopcp/pmlogger"
)

// A Logger recording three samples of two metrics into an archive, from
// PCP's sample agent run inside this process (a pmlogger asks a pmcd),
// then the archive read back.
func ExampleNew() {
	ctx := context.Background()
	agents := local.NewTable()
	agents.Clear()
	if err := agents.Add(29, "pmda_sample.so", "sample_init"); err != nil {
		log.Fatal(err)
	}
	names, err := sample.Namespace(29)
	if err != nil {
		log.Fatal(err)
	}
	src, err := local.NewContext(ctx, local.WithTable(agents), local.WithNamespace(names))
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	cfg, err := pmlogger.ParseConfig("log mandatory on every 10 msec { sample.long.hundred sample.colour }\n", "example.config", 0)
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "pmlogger-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	base := filepath.Join(dir, "example")
	l, err := pmlogger.New(ctx, src, cfg, pmlogger.Options{Archive: base, Samples: 3, Hostname: "example"})
	if err != nil {
		log.Fatal(err)
	}
	if err := l.Run(ctx); err != nil {
		log.Fatal(err)
	}
	if err := l.Close(ctx); err != nil {
		log.Fatal(err)
	}

	a, err := archive.Open(base, archive.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
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
		if res.Sets[0].PMID.Domain() == 2 {
			// the prologue and epilogue: pmcd.pmlogger.*, pmcd.pid
			// and pmcd.seqnum, as PCP's pmlogger writes them
			fmt.Println(len(res.Sets), "metrics of pmlogger's own")
			continue
		}
		var line []string
		for _, s := range res.Sets {
			d, _ := a.Meta.Desc(s.PMID)
			vals := []string{s.PMID.String() + ":"}
			for _, v := range s.Values {
				atom, _ := pcp.ExtractValue(s.ValFmt, &v, d.Type, d.Type)
				vals = append(vals, pcp.AtomStr(atom, d.Type))
			}
			line = append(line, strings.Join(vals, " "))
		}
		fmt.Println(strings.Join(line, "  "))
	}
	// Output:
	// 5 metrics of pmlogger's own
	// 29.0.12: 100  29.0.5: 101 202 303
	// 29.0.12: 100  29.0.5: 104 205 306
	// 29.0.12: 100  29.0.5: 107 208 309
	// 5 metrics of pmlogger's own
}
