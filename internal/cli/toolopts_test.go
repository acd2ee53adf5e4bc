package cli

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestToolOptions covers what later tools asked of the option parser:
// POSIX operand order, letters shown but not accepted, deferred end
// checks, -K tables, -t intervals, -s given as zero, --derived files.
func TestToolOptions(t *testing.T) {
	var seen []string
	cmd := func(posix, deferEnd bool) *Command {
		return &Command{
			Name: "tool", Usage: "[options] args", POSIX: posix, DeferEnd: deferEnd,
			Options: append(GeneralOptions(), OptSpecLocal, OptLocalPMDA, OptDerived,
				Option{Long: "dee", Short: 'd', Help: "shown as -d, accepted as --dee only", LongOnly: true},
				Option{Long: "fetch", Short: 'F', Help: "fetch"}),
			Handle: func(o Option, arg string, p *Parsed) { seen = append(seen, string(o.Short)) },
		}
	}
	tests := []struct {
		name     string
		posix    bool
		deferEnd bool
		argv     []string
		args     []string
		msgs     string
		check    func(t *testing.T, p *Parsed)
	}{
		{name: "gnu order", argv: []string{"a", "-F", "-5"}, args: []string{"a"}, msgs: "tool: invalid option -- '5'\n"},
		{name: "posix order", posix: true, argv: []string{"-F", "a", "-F", "-5"}, args: []string{"a", "-F", "-5"}},
		{name: "long only letter", argv: []string{"-d"}, msgs: "tool: invalid option -- 'd'\n"},
		{name: "long only long", argv: []string{"--dee"}, check: func(t *testing.T, p *Parsed) {
			if len(seen) == 0 || seen[len(seen)-1] != "d" {
				t.Errorf("--dee not handled: %v", seen)
			}
		}},
		{name: "end checks", argv: []string{"-S", "@10:00"}, msgs: "tool: time window options are supported for archives only\n"},
		{name: "deferred end checks", deferEnd: true, argv: []string{"-S", "@10:00"}, check: func(t *testing.T, p *Parsed) {
			p.Archives = []string{"x"}
			p.End()
			if p.Errors != 0 || p.Context != ContextArchive {
				t.Errorf("after End: %d errors, context %v", p.Errors, p.Context)
			}
		}},
		{name: "spec local", argv: []string{"-K", "clear", "-K", "add,29,/x.so,x_init", "-L"}, check: func(t *testing.T, p *Parsed) {
			list, err := p.LocalAgents.List()
			if err != nil || len(list) != 1 || list[0].Entry != "x_init" || p.Context != ContextLocal {
				t.Errorf("table %v, %v; context %v", list, err, p.Context)
			}
		}},
		{name: "bad spec local", argv: []string{"-K", "add,x"}, msgs: "tool: pmSpecLocalPMDA failed: bad domain in spec\n"},
		{name: "interval", argv: []string{"-t", "1min 30"}, check: func(t *testing.T, p *Parsed) {
			if p.IntervalDur != 90*time.Second {
				t.Errorf("interval %v", p.IntervalDur)
			}
		}},
		{name: "bad interval", argv: []string{"-t", "2 fortnights"},
			msgs: "tool: -t argument not in pmParseHighResInterval(3) format:\n2 fortnights\n  ^ -- unexpected value\n\n"},
		{name: "zero samples", argv: []string{"-s", "0"}, check: func(t *testing.T, p *Parsed) {
			if !p.SamplesSet || p.Samples != 0 {
				t.Errorf("samples %d set %v", p.Samples, p.SamplesSet)
			}
		}},
		{name: "derived missing", argv: []string{"--derived=/nonexistent/derived"}, msgs: "tool: pmLoadDerivedConfig failed: No such file or directory\n"},
		{name: "derived present", argv: []string{"--derived=/etc/hostname"}, check: func(t *testing.T, p *Parsed) {
			if !reflect.DeepEqual(p.Derived, []string{"/etc/hostname"}) {
				t.Errorf("derived %v", p.Derived)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := ParseEnv(cmd(tc.posix, tc.deferEnd), append([]string{"tool"}, tc.argv...), nil)
			if msgs := strings.Join(p.Messages, ""); msgs != tc.msgs {
				t.Errorf("messages %q, want %q", msgs, tc.msgs)
			}
			if tc.args != nil && !reflect.DeepEqual(p.Args, tc.args) {
				t.Errorf("args %q, want %q", p.Args, tc.args)
			}
			if tc.check != nil {
				tc.check(t, p)
			}
		})
	}
}

// TestArchiveZone: the zone and note of -z (the label's zone), -Z (the
// one named) and neither (the local one, from $TZ).
func TestArchiveZone(t *testing.T) {
	t.Setenv("TZ", "EST-10")
	for _, c := range []struct {
		name string
		p    Parsed
		zone string // at the epoch, as "MST -0700"
		note string
	}{
		{"neither", Parsed{Context: ContextArchive}, "EST +1000", ""},
		{"-z", Parsed{Context: ContextArchive, HostZone: true}, "AEST +1100",
			"Note: timezone set to local timezone of host \"vm\" from archive\n\n"},
		{"-Z", Parsed{Context: ContextArchive, Timezone: "UTC", TimezoneSet: true}, "UTC +0000",
			"Note: timezone set to \"TZ=UTC\"\n\n"},
	} {
		loc, note := c.p.ArchiveZone("AEST-11", "vm")
		if got := time.Unix(0, 0).In(loc).Format("MST -0700"); got != c.zone || note != c.note {
			t.Errorf("%s: zone %q note %q, want %q and %q", c.name, got, note, c.zone, c.note)
		}
	}
}

func TestTimezoneNote(t *testing.T) {
	p := &Parsed{HostZone: true, Context: ContextHost}
	if got := p.TimezoneNote("vm"); got != "Note: timezone set to local timezone of host \"vm\"\n\n" {
		t.Errorf("-z note %q", got)
	}
	p = &Parsed{Timezone: "UTC", TimezoneSet: true}
	if got := p.TimezoneNote("vm"); got != "Note: timezone set to \"TZ=UTC\"\n\n" {
		t.Errorf("-Z note %q", got)
	}
	if got := WithContainer("h?x=1", "c"); got != "h?x=1&container=c" {
		t.Errorf("WithContainer = %q", got)
	}
}
