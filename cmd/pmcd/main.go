// Command pmcd is gopcp's Performance Metrics Collection Daemon: it serves
// a namespace to PCP clients and their requests through the agents of its
// pmcd.conf; see package pmcd.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	// The Go agents this pmcd runs in-process, found by the entry
	// points pmcd.conf "dso" lines name.
	_ "github.com/gopcp/gopcp/agents/all"
	"github.com/gopcp/gopcp/pmcd"
	"github.com/gopcp/gopcp/pmns"
)

func main() {
	log.SetFlags(log.LstdFlags)
	log.SetPrefix("pmcd: ")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], nil); err != nil {
		stop()
		log.Fatal(err)
	}
}

// defaultConf is where PCP keeps pmcd.conf.
func defaultConf() string {
	if p := os.Getenv("PCP_PMCDCONF_PATH"); p != "" {
		return p
	}
	return "/etc/pcp/pmcd/pmcd.conf"
}

// run is pmcd with its arguments; ready, if not nil, gets the listening
// address once clients can connect.
func run(ctx context.Context, args []string, ready chan<- net.Addr) error {
	fset := flag.NewFlagSet("pmcd", flag.ContinueOnError)
	port := fset.Int("p", defaultPort(), "accept clients on `port` (PCP's PMCD_PORT, default 44321)")
	iface := fset.String("i", "", "accept clients only on the interface with `address`")
	nsFile := fset.String("n", "", "load the namespace from `pmnsfile` instead of the default")
	confFile := fset.String("c", "", "read the agents from `config` (default "+defaultConf()+")")
	limit := fset.Int("L", 0, "refuse client PDUs longer than `bytes` (default 65536)")
	timeout := fset.Float64("t", 0, "agent request timeout in `seconds` (default 5)")
	fset.Bool("f", true, "run in the foreground (always, for now)")
	if err := fset.Parse(args); err != nil {
		return err
	}
	if fset.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fset.Arg(0))
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

	path := *confFile
	if path == "" {
		path = defaultConf()
	}
	conf, err := pmcd.LoadConf(path)
	if err != nil {
		// Without -c, a missing default file means no agents.
		if *confFile != "" || !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		conf = &pmcd.Conf{}
	}

	addr := net.JoinHostPort(*iface, strconv.Itoa(*port))
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("cannot listen: %w", err)
	}
	srv := &pmcd.Server{
		PMNS:         tree,
		MaxPDU:       *limit,
		AgentTimeout: time.Duration(*timeout * float64(time.Second)),
		Conf:         conf,
		Log:          log.Default(),
		AgentStderr:  os.Stderr,
		// As with PCP, dead agents are restarted unless
		// PMCD_RESTART_AGENTS is 0.
		AutoRestart: os.Getenv("PMCD_RESTART_AGENTS") != "0",
	}
	defer srv.Close()

	// SIGHUP restarts agents that have died, as with PCP's pmcd; unlike
	// PCP's, pmcd.conf is not read again.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				log.Printf("SIGHUP: %d agents answer", srv.RestartDead(ctx))
			}
		}
	}()
	log.Printf("serving %d names and %d agents on %v", tree.Len(), len(conf.Agents), l.Addr())
	if ready != nil {
		ready <- l.Addr()
	}
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
