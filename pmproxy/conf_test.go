package pmproxy

import (
	"strings"
	"testing"
)

func TestParseConf(t *testing.T) {
	c, err := ParseConf(strings.NewReader("# comment\n[pmproxy]\npcp.enabled = true\nhttp.enabled=false\n\n[redis]\nenabled = false\n; other\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Bool("pmproxy.pcp.enabled", false) || c.Bool("pmproxy.http.enabled", true) || c.Bool("redis.enabled", true) {
		t.Errorf("ParseConf = %v", c)
	}
	if !c.Bool("pmproxy.missing", true) {
		t.Error("default not kept")
	}
	if _, err := ParseConf(strings.NewReader("[bad\n")); err == nil {
		t.Error("unterminated section accepted")
	}
}

func FuzzParseConf(f *testing.F) {
	f.Add("[a]\nb = c\n")
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseConf(strings.NewReader(s)) })
}
