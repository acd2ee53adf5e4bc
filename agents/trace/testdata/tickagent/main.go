// Command tickagent is gopcp's trace agent as a pipe daemon whose
// intervals close on SIGALRM only (Options.ManualTicks), the way PCP's
// pmdatrace closes them when its timer fires, so that a test firing both
// agents' timers by hand compares their windows step by step. After each
// interval (and once at the start) it notes its pid and count in the file
// $GOPCP_STEPCLOCK_NOTE, as the stepclock preload library does for PCP's.
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

	atrace "github.com/gopcp/gopcp/agents/trace"
	"github.com/gopcp/gopcp/internal/testing/stepclock"
	"github.com/gopcp/gopcp/pmda"
)

func main() {
	domain := flag.Uint("d", atrace.Domain, "domain")
	port := flag.Int("I", 0, "port programs connect on")
	period := flag.Int("T", 60, "period in seconds")
	buckets := flag.Int("N", 5, "buckets")
	flag.Parse()
	note := os.Getenv(stepclock.EnvNote)
	if note == "" {
		fmt.Fprintln(os.Stderr, "tickagent: no", stepclock.EnvNote)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(*port))
	if err != nil {
		fmt.Fprintln(os.Stderr, "tickagent:", err)
		os.Exit(1)
	}
	lg := log.New(os.Stderr, "tickagent: ", log.LstdFlags)
	a, err := atrace.New(uint32(*domain), atrace.Options{
		Port: *port, Period: time.Duration(*period) * time.Second, Buckets: *buckets,
		ManualTicks: true, Log: lg, PID: int32(os.Getpid()),
	})
	if err != nil {
		lg.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	alarms := make(chan os.Signal, 1)
	signal.Notify(alarms, syscall.SIGALRM)
	go a.Serve(ctx, ln)
	go func() {
		var n int64 = 1
		if err := stepclock.Note(note, n); err != nil {
			lg.Fatal(err)
		}
		for range alarms {
			a.Tick()
			n++
			if err := stepclock.Note(note, n); err != nil {
				lg.Fatal(err)
			}
		}
	}()
	d := pmda.DaemonOptions{Domain: uint32(*domain)}
	if err := d.Run(ctx, a.PMDA(), os.Stdin, os.Stdout); err != nil {
		lg.Fatal(err)
	}
}
