package pmlogger

import (
	"errors"
	"net"
	"slices"
	"testing"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/pcp"
)

func TestAccessMasks(t *testing.T) {
	for _, c := range []struct {
		rule       AccessRule
		spec, deny int
	}{
		{AccessRule{Allow: true, Ops: []string{"all"}}, opAllLogger, 0},
		{AccessRule{Ops: []string{"all"}}, opAllLogger, opAllLogger},
		{AccessRule{Allow: true, Ops: []string{"advisory", "enquire"}}, OpAdvisory | OpEnquire, 0},
		{AccessRule{Ops: []string{"mandatory"}}, OpMandatory, OpMandatory},
		{AccessRule{Allow: true, Ops: []string{"all", "mandatory"}, Except: true}, opAllLogger, OpMandatory},
		{AccessRule{Ops: []string{"all", "enquire"}, Except: true}, opAllLogger, OpAdvisory | OpMandatory},
	} {
		spec, deny := c.rule.masks()
		if spec != c.spec || deny != c.deny {
			t.Errorf("%+v: spec %b deny %b, want %b %b", c.rule, spec, deny, c.spec, c.deny)
		}
	}
}

// TestBuildAccess applies an [access] section to clients, with libpcp's
// rules: the most specific matching statement decides the operations it
// names, a client denied everything is refused, one nothing matches is
// allowed everything.
func TestBuildAccess(t *testing.T) {
	cfg, err := ParseConfig("log mandatory on 1 sec { a.b }\n[access]\n"+
		"disallow .* : all;\n"+
		"allow 192.168.* : all except mandatory;\n"+
		"allow 192.168.1.* : mandatory;\n"+
		"disallow unix: : advisory, mandatory;\n", "cfg", 0)
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	acc, err := BuildAccess(cfg.Access, func(level, n string) { notes = append(notes, level+": "+n) })
	if err != nil || len(notes) > 0 {
		t.Fatalf("BuildAccess: %v %q", err, notes)
	}
	for _, c := range []struct {
		id   access.ClientID
		deny int
		err  error
	}{
		{access.ClientID{IP: net.ParseIP("10.0.0.1").To4()}, opAllLogger, pcp.ErrPermission},
		{access.ClientID{IP: net.ParseIP("192.168.2.1").To4()}, OpMandatory, nil},
		{access.ClientID{IP: net.ParseIP("192.168.1.9").To4()}, 0, nil},
		{access.ClientID{Unix: true}, OpAdvisory | OpMandatory, nil},
	} {
		deny, err := acc.AdmitHost(c.id)
		if deny != c.deny || !errors.Is(err, c.err) && !(err == nil && c.err == nil) {
			t.Errorf("%v: deny %b %v, want %b %v", c.id, deny, err, c.deny, c.err)
		}
		if err == nil {
			acc.ReleaseHost(c.id)
		}
	}
	if a, err := BuildAccess(nil, nil); a != nil || err != nil {
		t.Errorf("no statements: %v %v", a, err)
	}
	// A statement adding nothing (a clash for its only address) ends the
	// configuration, with libpcp's note.
	cfg, _ = ParseConfig("log mandatory on 1 sec { a.b }\n[access]\nallow 10.1.* : all;\ndisallow 10.1.* : enquire;\n", "cfg", 0)
	notes = nil
	_, err = BuildAccess(cfg.Access, func(level, n string) { notes = append(notes, level+": "+n) })
	var ae *AccessError
	if !errors.As(err, &ae) || ae.Line != 4 || len(notes) != 1 {
		t.Errorf("clash: %v %q", err, notes)
	}
	// A Unix socket pattern's path is ignored with libpcp's warning,
	// before the clash the same statement meets.
	cfg, _ = ParseConfig("log mandatory on 1 sec { a.b }\n[access]\nallow unix: : all;\ndisallow unix:/tmp/s : enquire;\n", "cfg", 0)
	notes = nil
	_, err = BuildAccess(cfg.Access, func(level, n string) { notes = append(notes, level+": "+n) })
	want := []string{`Warning: Ignoring the path in host pattern "/tmp/s"`, "Error: Permission clash for unix: with earlier statement for unix:"}
	if !errors.As(err, &ae) || ae.Line != 4 || !slices.Equal(notes, want) {
		t.Errorf("unix path: %v %q, want %q", err, notes, want)
	}
}
