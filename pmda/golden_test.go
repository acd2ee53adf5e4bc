package pmda

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pdu"
)

// capturedPDU is one PDU of a golden capture of real traffic between PCP's
// pmcd and its sample agent (pdu/testdata/captures).
type capturedPDU struct {
	fromPMCD bool
	b        []byte
}

// loadAgentCaptures reads every pmcd-to-agent capture, keyed by file name.
func loadAgentCaptures(t testing.TB) map[string][]capturedPDU {
	t.Helper()
	files, err := filepath.Glob("../pdu/testdata/captures/pmcd-pmda*.pdus")
	if err != nil || len(files) == 0 {
		t.Fatalf("no pmcd-agent captures (%v)", err)
	}
	all := make(map[string][]capturedPDU)
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		var pdus []capturedPDU
		pmcdConnects := true
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "# connection:") {
				pmcdConnects = strings.Contains(line, "pmcd ->")
			}
			if line == "" || line[0] == '#' {
				continue
			}
			dir, hx, ok := strings.Cut(line, " ")
			b, err := hex.DecodeString(hx)
			if !ok || err != nil {
				t.Fatalf("%s: bad line %q", name, line)
			}
			pdus = append(pdus, capturedPDU{fromPMCD: (dir == ">") == pmcdConnects, b: b})
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		all[filepath.Base(name)] = pdus
	}
	return all
}

// splitPDUs cuts a stream of whole PDUs apart.
func splitPDUs(t *testing.T, b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		h, err := pdu.ParseHeader(b)
		if err != nil || int(h.Len) > len(b) {
			t.Fatalf("agent wrote a bad PDU stream: %v", err)
		}
		out = append(out, b[:h.Len])
		b = b[h.Len:]
	}
	return out
}

// TestGoldenPMCDRequests feeds the requests PCP's pmcd sent the sample agent
// to our dispatcher and checks that it answers exactly those PCP's agent
// answered, one PDU each, of the same type or an ERROR (our test agent does
// not have sample's metrics), and ignores those it ignored.
func TestGoldenPMCDRequests(t *testing.T) {
	for name, pdus := range loadAgentCaptures(t) {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			d := NewDispatcher(newTestAgent(t, &testFetcher{}), pdu.NewWriter(&out))
			for i := 0; i < len(pdus); i++ {
				p := pdus[i]
				h, err := pdu.ParseHeader(p.b)
				if err != nil {
					t.Fatal(err)
				}
				if !p.fromPMCD || h.Type == pdu.TypeCreds {
					continue // replies, and the handshake
				}
				var want []pdu.Type
				for j := i + 1; j < len(pdus) && !pdus[j].fromPMCD; j++ {
					rh, _ := pdu.ParseHeader(pdus[j].b)
					if rh.Type != pdu.TypeCreds {
						want = append(want, rh.Type)
					}
				}
				out.Reset()
				if err := d.Dispatch(context.Background(), p.b); err != nil {
					t.Fatalf("PDU %d (%v): %v", i, h.Type, err)
				}
				got := splitPDUs(t, out.Bytes())
				if len(got) != len(want) {
					t.Fatalf("PDU %d (%v): %d replies, PCP's agent gave %d", i, h.Type, len(got), len(want))
				}
				for k, b := range got {
					gh, _ := pdu.ParseHeader(b)
					if gh.Type != want[k] && gh.Type != pdu.TypeError {
						t.Errorf("PDU %d (%v): reply %v, PCP's agent's %v", i, h.Type, gh.Type, want[k])
					}
				}
			}
		})
	}
}
