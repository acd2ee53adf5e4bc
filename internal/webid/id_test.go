package webid

import "testing"

// Identifiers PCP 6.0.3's pmseries --load gave the QA archive 20041125
// (pmseries -a on each series; the source also in docs/series.md).
func TestIDsMatchPCP(t *testing.T) {
	const host = `{"hostname":"mortenb.oslo.sgi.com"}`
	cases := []struct {
		name string
		got  ID
		want string
	}{
		{"source", SourceID(host), "4c90db850be27b1dbfb63121447ba7c3ade5861e"},
		{"string", StringID("/var/lib/pcp/testsuite/archives/20041125"), "e812b4ab23c5a370371cbf32899c074874f7e743"},
		{"kernel.all.load", MetricID("kernel.all.load", host, "instant", "FLOAT", ""), "5262646b7261b4bcae8eb9f1f81756e4af9e82f9"},
		{"mem.physmem", MetricID("mem.physmem", host, "discrete", "U64", "Kbyte"), "0d3f07244630d0acf607006eace0fb80eb8ab678"},
		{"disk.dev.read_bytes", MetricID("disk.dev.read_bytes", host, "counter", "U32", "Kbyte"), "37b621c1be9305748c6d6f8ddd293e62a652eb59"},
		{"instance 1 minute", InstanceID("1 minute", host), "0455a102928cfd6ab99f8e27ff64d8148f9872a4"},
		{"instance sda", InstanceID("sda", host), "c8f86872ed7b14e9d536b44a5853bc84f5783f81"},
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
