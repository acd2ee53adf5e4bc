package series

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// The identifiers of one archive as PCP 6.0.3's pmseries --load wrote them
// (20041125 from the QA archives: source, a metric name, a string).
func TestIDsMatchPCP(t *testing.T) {
	cases := []struct {
		name string
		got  ID
		want string
	}{
		{"source", SourceID(`{"hostname":"mortenb.oslo.sgi.com"}`), "4c90db850be27b1dbfb63121447ba7c3ade5861e"},
		{"string", StringID("/var/lib/pcp/testsuite/archives/20041125"), "e812b4ab23c5a370371cbf32899c074874f7e743"},
	}
	for _, c := range cases {
		if c.got.String() != c.want {
			t.Errorf("%s: %s, PCP's %s", c.name, c.got, c.want)
		}
	}
}

func TestParseID(t *testing.T) {
	id := StringID("x")
	back, ok := ParseID(id.String())
	if !ok || back != id {
		t.Fatalf("ParseID(%s) = %s, %v", id, back, ok)
	}
	for _, bad := range []string{"", "zz", id.String()[:39], id.String() + "0", "g" + id.String()[1:]} {
		if _, ok := ParseID(bad); ok {
			t.Errorf("ParseID(%q) accepted", bad)
		}
	}
}

func pcpTS(sec, nsec int64) pcp.Timestamp { return pcp.Timestamp{Sec: sec, Nsec: int32(nsec)} }
