package pmproxy

import "testing"

func TestConfBool(t *testing.T) {
	c := Conf{"pmproxy.pcp.enabled": "true", "pmproxy.http.enabled": "false", "redis.enabled": "No"}
	if !c.Bool("pmproxy.pcp.enabled", false) || c.Bool("pmproxy.http.enabled", true) || c.Bool("redis.enabled", true) {
		t.Errorf("Bool of %v wrong", c)
	}
	if !c.Bool("pmproxy.missing", true) {
		t.Error("default not kept")
	}
}
