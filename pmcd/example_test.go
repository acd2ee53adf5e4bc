package pmcd_test

import (
	"context"
	"fmt"
	"log"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopcp/gopcp/agents/sample"
	"github.com/gopcp/gopcp/fetchgroup"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmcd"
	"github.com/gopcp/gopcp/pmda"
)

// A pmcd embedded in a Go program: a pmcd.conf naming an agent that runs
// in this process, its namespace, and the server on a Unix socket of its
// own, asked by a client as any PCP client asks pmcd. A pmcd.conf line
// naming a program ("pipe") or a socket starts or reaches a daemon agent
// instead, as PCP's pmcd does.
func Example() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pmcd.RegisterDSO("example_sample_init", func(domain uint32) (*pmda.Agent, error) {
		return sample.New(domain, sample.Options{DSO: true})
	})
	conf, err := pmcd.ParseConf(strings.NewReader(`
# name  domain  type  entry               path
sample  29      dso   example_sample_init /nowhere
[access]
allow "local:*" : all;
disallow * : store;
`), "pmcd.conf")
	if err != nil {
		log.Fatal(err)
	}
	tree, err := pmcd.AgentNamespace(ctx, conf, map[string]pmcd.NameSource{"example_sample_init": sample.Namespace})
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "pmcd-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	socket := filepath.Join(dir, "pmcd.socket")
	ln, err := net.Listen("unix", socket)
	if err != nil {
		log.Fatal(err)
	}
	srv := &pmcd.Server{PMNS: tree, Conf: conf}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	defer func() { cancel(); <-served }()

	c, err := pmapi.NewHostContext(ctx, "unix:"+socket)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	names, err := c.Children(ctx, "sample.long")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(names)
	vals, err := fetchgroup.Values[float64](ctx, c, "sample.long.ten", "sample.double.million")
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range vals {
		fmt.Println(m.Name, m.Instances[0].Value)
	}
	// Output:
	// [one ten hundred million write_me bin bin_ctr]
	// sample.long.ten 10
	// sample.double.million 1e+06
}
