package pmproxy

import "testing"

// TestConfSwitchWords: PCP 6.0.3's pmproxy and libpcp_web compare a
// switch's value with strcmp against "true" (to turn one on) or "false"
// (to turn one off), nothing else.
func TestConfSwitchWords(t *testing.T) {
	for _, c := range []struct {
		value   string
		set     bool
		on, off bool
	}{
		{"", false, false, false},
		{"true", true, true, false},
		{"false", true, false, true},
		{"yes", true, false, false},
		{"on", true, false, false},
		{"1", true, false, false},
		{"True", true, false, false},
		{"no", true, false, false},
		{"off", true, false, false},
		{"0", true, false, false},
		{"FALSE", true, false, false},
		{"", true, false, false},
	} {
		conf := Conf{}
		if c.set {
			conf["s.enabled"] = c.value
		}
		if on, off := conf.On("s.enabled"), conf.Off("s.enabled"); on != c.on || off != c.off {
			t.Errorf("%q (set %v): On %v Off %v, want %v %v", c.value, c.set, on, off, c.on, c.off)
		}
	}
}

// TestSlotsLine: the line about Redis follows PCP 6.0.3's switches.
func TestSlotsLine(t *testing.T) {
	for _, c := range []struct {
		conf Conf
		want string
	}{
		{Conf{}, ""},
		{Conf{"pmseries.enabled": "yes"}, ""},
		{Conf{"pmseries.enabled": "true"}, "Redis slots, schema version setup"},
		{Conf{"discover.enabled": "true"}, "Redis slots setup"},
		{Conf{"pmsearch.enabled": "true"}, "Redis slots setup"},
		{Conf{"pmproxy.redis.enabled": "true", "pmseries.enabled": "true"}, "Redis slots, schema version setup"},
	} {
		if got := slotsLine(c.conf); got != c.want {
			t.Errorf("%v: %q, want %q", c.conf, got, c.want)
		}
	}
}
