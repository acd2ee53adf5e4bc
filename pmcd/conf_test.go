package pmcd

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseConf(t *testing.T) {
	good := `# Performance Metrics Domain Specifications
pmcd	2	dso	pmcd_init	/var/lib/pcp/pmdas/pmcd/pmda_pmcd.so
linux	60	pipe	binary		/var/lib/pcp/pmdas/linux/pmdalinux -d 60   # trailing comment
slow	61	pipe	binary	notready	/bin/slow -x
sock	62	socket	inet	4000	/bin/agent -i 4000
usock	63	socket	unix	/run/agent.socket

[access]
disallow ".*" : store;
allow localhost :
	all;   # spread over lines
`
	c, err := ParseConf(strings.NewReader(good), "pmcd.conf")
	if err != nil {
		t.Fatal(err)
	}
	want := []AgentConf{
		{Name: "pmcd", Domain: 2, Kind: AgentDSO, Entry: "pmcd_init", Path: "/var/lib/pcp/pmdas/pmcd/pmda_pmcd.so", Line: 2},
		{Name: "linux", Domain: 60, Kind: AgentPipe, Argv: []string{"/var/lib/pcp/pmdas/linux/pmdalinux", "-d", "60"}, Line: 3},
		{Name: "slow", Domain: 61, Kind: AgentPipe, NotReady: true, Argv: []string{"/bin/slow", "-x"}, Line: 4},
		{Name: "sock", Domain: 62, Kind: AgentSocket, Family: "inet", Addr: "4000", Argv: []string{"/bin/agent", "-i", "4000"}, Line: 5},
		{Name: "usock", Domain: 63, Kind: AgentSocket, Family: "unix", Addr: "/run/agent.socket", Argv: []string{}, Line: 6},
	}
	if !reflect.DeepEqual(c.Agents, want) {
		t.Errorf("agents:\n%+v\nwant\n%+v", c.Agents, want)
	}
	wantAccess := []string{`disallow ".*" : store`, "allow localhost : all"}
	if !reflect.DeepEqual(c.Access, wantAccess) {
		t.Errorf("access: %q, want %q", c.Access, wantAccess)
	}
}

// TestParseConfErrors checks the messages, which are PCP's pmcd's.
func TestParseConfErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"a x dso e /p\n", `f config[line 1]: Error: expected domain number for "a" agent`},
		{"a\n", `f config[line 1]: Error: expected domain number for "a" agent`},
		{"a 511 dso e /p\n", `f config[line 1]: Error: Illegal domain number (511) for "a" agent`},
		{"a 1 dso\n", "f config[line 1]: Error: expected DSO entry point"},
		{"a 1 dso e\n", "f config[line 1]: Error: expected DSO pathname"},
		{"a 1 dso e rel.so\n", `f config[line 1]: Error: path "rel.so" to PMDA is not absolute`},
		{"a 1 dso e /p x\n", "f config[line 1]: Error: too many parameters for DSO"},
		{"a 1 pipe text /bin/a\n", "f config[line 1]: Error: pipe PDU type expected (`binary')"},
		{"a 1 pipe binary\n", "f config[line 1]: Error: command to create pipe agent expected."},
		{"a 1 pipe binary notready\n", "f config[line 1]: Error: command to create pipe agent expected."},
		{"a 1 socket tcp 4000\n", "f config[line 1]: Error: expected socket address domain (`inet', `ipv6', or `unix')"},
		{"a 1 socket inet\n", "f config[line 1]: Error: expected socket port name or number"},
		{"a 1 socket inet no-such-service-here\n", "f config[line 1]: Error: failed to get port number for port name no-such-service-here"},
		{"a 1 fifo x\n", "f config[line 1]: Error: expected `dso', `socket' or `pipe'"},
		{"a 1 dso e /p\nb 1 dso e /q\n", `f config[line 2]: Error: domain number for "b" agent clashes with "a" agent`},
		{"a 1 dso e /p\n[access]\n", "pmcd config[line 3]: Error: no valid statements in [access] section"},
		{"a 1 dso e /p\n[acl]\n", `f config[line 2]: Error: "access" keyword expected`},
		{"# two bad lines\na\nb 1\n", "f config[line 2]: Error: expected domain number for \"a\" agent\n" +
			"f config[line 3]: Error: expected `dso', `socket' or `pipe'"},
	}
	for _, c := range cases {
		_, err := ParseConf(strings.NewReader(c.text), "f")
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: error %v, want %s", c.text, err, c.want)
		}
	}
}

// TestConfStatusLastLine: as with PCP's pmcd, a file is bad when its last
// agent line is, and then its access section is not read; a bad line
// followed by a good one only leaves its agent out.
func TestConfStatusLastLine(t *testing.T) {
	cases := []struct {
		text           string
		bad            bool
		agents, errors int
	}{
		{"x 1 pipe\npmcd 2 dso pmcd_init /p.so\n", false, 1, 1},
		{"pmcd 2 dso pmcd_init /p.so\nx 1 pipe\n", true, 0, 0},
		{"x 1 pipe\n[access]\nallow nosuch : bogus;\n", true, 0, 0},
		{"a 5 dso a_init rel.so\npmcd 2 dso pmcd_init /p.so\n", true, 0, 0},
		{"a 5 dso a_init rel.so # note\npmcd 2 dso pmcd_init /p.so\n", true, 0, 0},
		{"", false, 0, 0},
	}
	for _, c := range cases {
		conf, err := ParseConf(strings.NewReader(c.text), "pmcd")
		if (err != nil) != c.bad {
			t.Errorf("%q: error %v, want bad=%v", c.text, err, c.bad)
			continue
		}
		if err == nil && (len(conf.Agents) != c.agents || len(conf.Errors) != c.errors) {
			t.Errorf("%q: %d agents and errors %q, want %d and %d", c.text, len(conf.Agents), conf.Errors, c.agents, c.errors)
		}
	}
}
