package pmproxy

import (
	"bytes"
	"log"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/lograte"
)

// TestRefusedStreamsLogBounded: a stream.maxlen Redis refuses is logged
// once a stream entry, as PCP's pmproxy does, but no more than lograte's
// burst in a period, however many entries are loaded.
func TestRefusedStreamsLogBounded(t *testing.T) {
	var buf bytes.Buffer
	o := LoadOptions(Conf{"pmseries.stream.maxlen": "abc"}, log.New(&buf, "", 0))
	if o.Refused == nil {
		t.Fatal("stream.maxlen abc: no Refused callback")
	}
	for range lograte.DefaultBurst + 50 {
		o.Refused("sid", "1-0")
	}
	if n := strings.Count(buf.String(), "status mismatch"); n != lograte.DefaultBurst {
		t.Fatalf("%d refusals logged for %d entries, want %d:\n%s", n, lograte.DefaultBurst+50, lograte.DefaultBurst, buf.String())
	}
	if !strings.Contains(buf.String(), "Redis reply error: ERR value is not an integer or out of range") {
		t.Errorf("no Redis error text in:\n%s", buf.String())
	}
}
