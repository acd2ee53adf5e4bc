package pmapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// recorder keeps what clients send through a recordingProxy.
type recorder struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}

// pdus returns the recorded PDUs in hex, without the first skip.
func (r *recorder) pdus(t *testing.T, skip int) []string {
	t.Helper()
	r.mu.Lock()
	data := bytes.Clone(r.buf.Bytes())
	r.mu.Unlock()
	rd := pdu.NewReader(bytes.NewReader(data), pdu.DefaultTimeout)
	var out []string
	for {
		p, err := rd.ReadPDU(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("recorded PDUs: %v", err)
		}
		out = append(out, hex.EncodeToString(p))
	}
	if len(out) < skip {
		t.Fatalf("recorded %d PDUs, fewer than %d", len(out), skip)
	}
	return out[skip:]
}

// recordingProxy relays connections to the bed's pmcd, recording what
// the client sends. It returns the proxy's host specification.
func recordingProxy(t *testing.T, bed *testbed.PMCD, rec *recorder) string {
	t.Helper()
	return loopbackServer(t, func(client net.Conn) {
		server, err := net.Dial("tcp", bed.Host())
		if err != nil {
			return
		}
		splice(client, server, rec)
	}).String()
}

// captured returns the PDUs a PCP client sent in a golden capture, in
// hex, without the first skip.
func captured(t *testing.T, name string, skip int) []string {
	t.Helper()
	f, err := os.Open("../pdu/testdata/captures/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if hexPDU, ok := strings.CutPrefix(sc.Text(), "> "); ok {
			out = append(out, hexPDU)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out[skip:]
}

// TestRequestsMatchCaptures makes the calls PCP's clients made in golden
// captures of their traffic with pmcd and checks that the PDUs sent are
// the same, byte for byte, after the connection's CREDS.
func TestRequestsMatchCaptures(t *testing.T) {
	colour := pcp.NewInDom(29, 1)
	for _, tc := range []struct {
		capture string
		skip    int    // client PDUs of the capture not made here
		attrs   string // attributes of the host specification
		calls   func(ctx context.Context, c *HostContext) error
	}{
		{"pminfo-f.pdus", 1, "", func(ctx context.Context, c *HostContext) error {
			return run(
				func() error { _, err := c.Traverse(ctx, "sample.long.one"); return err },
				func() error { return fetchDesc(ctx, c, "sample.long.one") },
			)
		}},
		{"pmapi-descs.pdus", 1, "", func(ctx context.Context, c *HostContext) error {
			pmids, err := c.LookupNames(ctx, []string{"sample.long.one", "sample.colour", "sample.string.hullo"})
			if err != nil {
				return err
			}
			_, err = c.LookupDescs(ctx, pmids)
			return err
		}},
		{"pmapi-children-status.pdus", 1, "", func(ctx context.Context, c *HostContext) error {
			_, err := c.ChildrenStatus(ctx, "sample.secret")
			return err
		}},
		{"pminfo-T.pdus", 1, "", func(ctx context.Context, c *HostContext) error {
			return run(
				func() error { _, err := c.Traverse(ctx, "sample.long.one"); return err },
				func() error { _, err := c.Traverse(ctx, "sample.colour"); return err },
				func() error {
					pmids, err := c.LookupNames(ctx, []string{"sample.long.one", "sample.colour"})
					for _, p := range pmids {
						if err == nil {
							_, err = c.LookupText(ctx, p, TextHelp)
						}
					}
					return err
				},
			)
		}},
		{"pminfo-l.pdus", 1, "", func(ctx context.Context, c *HostContext) error {
			pmid := pcp.NewPMID(29, 0, 5)
			return run(
				func() error { _, err := c.Traverse(ctx, "sample.colour"); return err },
				func() error { return fetchDesc(ctx, c, "sample.colour") },
				func() error { _, err := c.ContextLabels(ctx); return err },
				func() error { _, err := c.DomainLabels(ctx, 29); return err },
				func() error { _, err := c.InDomLabels(ctx, colour); return err },
				func() error { _, err := c.ClusterLabels(ctx, pmid); return err },
				func() error { _, err := c.ItemLabels(ctx, pmid); return err },
				func() error { _, err := c.GetInDom(ctx, colour); return err },
				func() error { _, err := c.InstancesLabels(ctx, colour); return err },
			)
		}},
		{"pminfo-container.pdus", 1, "?container=gopcp-test", func(ctx context.Context, c *HostContext) error {
			return run(
				func() error { _, err := c.Traverse(ctx, "sample.long.one"); return err },
				func() error { return fetchDesc(ctx, c, "sample.long.one") },
			)
		}},
		// pmval first looks up and stores pmcd.client.whoami.
		{"pmval-i.pdus", 3, "", func(ctx context.Context, c *HostContext) error {
			var r pcp.Result
			pmid := pcp.NewPMID(29, 0, 5)
			return run(
				func() error { _, err := c.HostName(ctx); return err },
				func() error { _, err := c.LookupName(ctx, "sample.colour"); return err },
				func() error { _, err := c.LookupDesc(ctx, pmid); return err },
				func() error { _, err := c.LookupInDom(ctx, colour, "red"); return err },
				func() error { _, err := c.LookupInDom(ctx, colour, "blue"); return err },
				func() error { return c.DelProfile(colour, nil) },
				func() error { return c.AddProfile(colour, []int32{0, 2}) },
				func() error { _, err := c.Fetch(ctx, []pcp.PMID{pmid}, &r); return err },
				func() error { _, err := c.Fetch(ctx, []pcp.PMID{pmid}, &r); return err },
				func() error { _, err := c.Fetch(ctx, []pcp.PMID{pmid}, &r); return err },
			)
		}},
	} {
		t.Run(tc.capture, func(t *testing.T) {
			bed := startBed(t)
			ctx := testContext(t)
			var rec recorder
			c, err := NewHostContext(ctx, recordingProxy(t, bed, &rec)+tc.attrs)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := tc.calls(ctx, c); err != nil {
				t.Fatal(err)
			}
			// CREDS must ask for the same features, from another pid.
			creds, wantCreds := rec.pdus(t, 0)[0], captured(t, tc.capture, 0)[0]
			if creds[:16]+creds[24:] != wantCreds[:16]+wantCreds[24:] {
				t.Errorf("CREDS %s, PCP's client %s", creds, wantCreds)
			}
			got := rec.pdus(t, 1)

			want := captured(t, tc.capture, tc.skip)
			if len(got) != len(want) {
				t.Fatalf("sent %d PDUs, PCP's client %d:\n%s\nPCP:\n%s", len(got), len(want), strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("PDU %d:\n got  %s\n PCP  %s", i, got[i], want[i])
				}
			}
		})
	}
}

func run(steps ...func() error) error {
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// fetchDesc does what pminfo -f does for one metric: look it up, fetch it
// and look up its descriptor.
func fetchDesc(ctx context.Context, c *HostContext, name string) error {
	pmids, err := c.LookupNames(ctx, []string{name})
	if err != nil {
		return err
	}
	var r pcp.Result
	if _, err := c.Fetch(ctx, pmids, &r); err != nil {
		return err
	}
	_, err = c.LookupDesc(ctx, pmids[0])
	return err
}
