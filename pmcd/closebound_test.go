package pmcd

import (
	"context"
	"log"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pmns"
)

// TestShutdownWithHungAgentClose: an in-process agent whose Close never
// returns cannot hold pmcd's shutdown: pmcd waits for it as long as it
// waits for a daemon to exit (stopGrace), says so in its log, and ends.
// Before, Close was waited for without a bound and shutdown never ended.
func TestShutdownWithHungAgentClose(t *testing.T) {
	hang := make(chan struct{})
	closeHangs = hang
	defer close(hang)
	tree, err := pmns.Parse(strings.NewReader(agentsPMNS), pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	conf, err := ParseConf(strings.NewReader("trivial\t250\tdso\ttrivial_init\t/nonexistent/pmda_trivial.so\n"+
		"broken 251 dso broken_closehangs_init /nonexistent/pmda_broken.so\n"), "test")
	if err != nil {
		t.Fatal(err)
	}
	var logged lockedBuffer
	srv := &Server{PMNS: tree, Conf: conf, Log: log.New(&logged, "", 0)}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv.Start(ctx)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, l) }()
	cancel()
	closed := make(chan struct{})
	go func() {
		<-served
		srv.Close()
		close(closed)
	}()
	// A liveness bound, not a measure: the shutdown must end at all.
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatalf("pmcd's shutdown did not end with an agent whose Close hangs; log:\n%s", logged.String())
	}
	if !strings.Contains(logged.String(), `agent "broken" (domain 251) did not finish closing`) {
		t.Errorf("no word of the agent left closing; log:\n%s", logged.String())
	}
}
