package sample

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
	"github.com/gopcp/gopcp/pmda"
)

// capture is a recorded conversation between PCP's pmcd and PCP's
// pmdasample (pdu/testdata/captures, made by scripts/capture-golden.sh):
// pmcd's requests and the agent's replies, in order.
type capture struct {
	fromPMCD bool
	b        []byte
}

func loadCapture(t *testing.T, path string) []capture {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []capture
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
		dir, hx, _ := strings.Cut(line, " ")
		b, err := hex.DecodeString(hx)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, capture{fromPMCD: (dir == ">") == pmcdConnects, b: b})
	}
	return out
}

// TestCapturedConversations replays the requests PCP's pmcd sent PCP's
// sample agent to a fresh agent of ours and checks that our replies are
// byte for byte the ones PCP's agent sent: descriptors, instances,
// labels, fetches, profiles, stores, the dynamic namespace, attributes.
// Help text is our own, so text replies are compared by type only, and
// event records carry times of day, so those are compared by length.
func TestCapturedConversations(t *testing.T) {
	files, err := filepath.Glob("../../pdu/testdata/captures/pmcd-pmdasample-*.pdus")
	if err != nil || len(files) == 0 {
		t.Fatalf("no captures (%v)", err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "pmcd-pmdasample-"), ".pdus")
		t.Run(name, func(t *testing.T) {
			pdus := loadCapture(t, path)
			var out bytes.Buffer
			d := pmda.NewDispatcher(newTest(t), pdu.NewWriter(&out))
			same := 0
			defer func() { t.Logf("%d replies byte for byte as PCP's", same) }()
			for i, p := range pdus {
				h, err := pdu.ParseHeader(p.b)
				if err != nil {
					t.Fatal(err)
				}
				if !p.fromPMCD || h.Type == pdu.TypeCreds {
					continue
				}
				var want [][]byte
				for _, r := range pdus[i+1:] {
					if r.fromPMCD {
						break
					}
					if rh, _ := pdu.ParseHeader(r.b); rh.Type != pdu.TypeCreds {
						want = append(want, r.b)
					}
				}
				out.Reset()
				if err := d.Dispatch(context.Background(), p.b); err != nil {
					t.Fatalf("PDU %d (%v): %v", i, h.Type, err)
				}
				got := split(t, out.Bytes())
				if len(got) != len(want) {
					t.Fatalf("PDU %d (%v): %d replies, PCP's agent sent %d", i, h.Type, len(got), len(want))
				}
				for k := range got {
					gh, _ := pdu.ParseHeader(got[k])
					wh, _ := pdu.ParseHeader(want[k])
					switch {
					case gh.Type != wh.Type:
						t.Errorf("PDU %d (%v): reply %v, PCP's %v", i, h.Type, gh.Type, wh.Type)
					case gh.Type == pdu.TypeText:
					case name == "events":
						if gh.Len != wh.Len {
							t.Errorf("PDU %d (%v): %d bytes, PCP's %d", i, h.Type, gh.Len, wh.Len)
						}
					case !bytes.Equal(got[k], want[k]):
						t.Errorf("PDU %d (%v) reply differs:\nours  %x\nPCP's %x", i, h.Type, got[k], want[k])
					default:
						same++
					}
				}
			}
		})
	}
}

func split(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for len(b) > 0 {
		h, err := pdu.ParseHeader(b)
		if err != nil || int(h.Len) > len(b) {
			t.Fatalf("bad PDU stream: %v", err)
		}
		out = append(out, b[:h.Len])
		b = b[h.Len:]
	}
	return out
}
