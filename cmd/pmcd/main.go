// Command pmcd is gopcp's Performance Metrics Collection Daemon. For now it
// serves a namespace to PCP clients and has no agents; see package pmcd.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/pmcd"
	"github.com/gopcp/gopcp/pmns"
)

func main() {
	log.SetFlags(log.LstdFlags)
	log.SetPrefix("pmcd: ")
	if err := run(); err != nil {
		log.Fatal(err)
	}
}

func run() error {
	fs := flag.NewFlagSet("pmcd", flag.ContinueOnError)
	port := fs.Int("p", defaultPort(), "accept clients on `port` (PCP's PMCD_PORT, default 44321)")
	iface := fs.String("i", "", "accept clients only on the interface with `address`")
	nsFile := fs.String("n", "", "load the namespace from `pmnsfile` instead of the default")
	limit := fs.Int("L", 0, "refuse client PDUs longer than `bytes` (default 65536)")
	timeout := fs.Float64("t", 0, "client request timeout in `seconds` (default 10)")
	fs.Bool("f", true, "run in the foreground (always, for now)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}

	var tree *pmns.Tree
	var err error
	if *nsFile != "" {
		tree, err = pmns.Load(*nsFile)
	} else {
		tree, err = pmns.LoadDefault()
	}
	if err != nil {
		return fmt.Errorf("cannot load namespace: %w", err)
	}

	addr := net.JoinHostPort(*iface, strconv.Itoa(*port))
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("cannot listen: %w", err)
	}
	srv := &pmcd.Server{
		PMNS:    tree,
		MaxPDU:  *limit,
		Timeout: time.Duration(*timeout * float64(time.Second)),
		Log:     log.Default(),
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log.Printf("serving %d names on %v", tree.Len(), l.Addr())
	return srv.Serve(ctx, l)
}

// defaultPort follows PCP: PMCD_PORT when set (its first entry), else 44321.
func defaultPort() int {
	if v := os.Getenv("PMCD_PORT"); v != "" {
		for i := 0; i < len(v); i++ {
			if v[i] == ',' {
				v = v[:i]
				break
			}
		}
		if p, err := strconv.Atoi(v); err == nil && p > 0 && p < 65536 {
			return p
		}
	}
	return 44321
}
