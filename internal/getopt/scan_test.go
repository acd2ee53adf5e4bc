package getopt

import (
	"reflect"
	"strings"
	"testing"
)

// daemonLike is a daemon's option table: own options with and without
// arguments, one with a letter only, -D and -?.
func daemonLike(seen *[]string) *Command {
	return &Command{
		Name: "d",
		Options: []Option{
			Header("General options"),
			OptDebug,
			{Long: "config", Short: 'c', Arg: "PATH", Help: "path to configuration file"},
			{Long: "configure", Short: 'C', Help: "configure"},
			{Long: "foreground", Short: 'f', Help: "run in the foreground"},
			{Short: 'L', Arg: "BYTES", Help: "maximum size"},
			OptHelp,
		},
		Handle: func(o Option, arg string, p *Parsed) {
			*seen = append(*seen, string(o.Short)+arg)
		},
	}
}

// TestScan checks getopt's readings: clusters, joined and separate
// arguments (a joined one keeps an "="), long options by a unique
// prefix, operands between options, "--", and GNU getopt's messages.
func TestScan(t *testing.T) {
	tests := []struct {
		args     []string
		seen     []string
		operands []string
		msgs     string
	}{
		{[]string{"-fc", "x", "op"}, []string{"f", "cx"}, []string{"op"}, ""},
		{[]string{"-cfx"}, []string{"cfx"}, []string{}, ""},
		{[]string{"-L=5", "--config=", "--fore"}, []string{"L=5", "c", "f"}, []string{}, ""},
		{[]string{"a", "--config", "-f", "b", "--", "-f"}, []string{"c-f"}, []string{"a", "b", "-f"}, ""},
		{[]string{"--conf"}, nil, []string{}, "d: option '--conf' is ambiguous; possibilities: '--config' '--configure'\n"},
		{[]string{"--foreground=1"}, nil, []string{}, "d: option '--foreground' doesn't allow an argument\n"},
		{[]string{"--config"}, nil, []string{}, "d: option '--config' requires an argument\n"},
		{[]string{"-fc"}, []string{"f"}, []string{}, "d: option requires an argument -- 'c'\n"},
		{[]string{"-xf", "--nosuch=1"}, []string{"f"}, []string{}, "d: invalid option -- 'x'\nd: unrecognized option '--nosuch=1'\n"},
		{[]string{"-D", "pdu,nosuch", "-Dfetch"}, nil, []string{}, "d: unrecognized debug options specification (pdu,nosuch)\n"},
		{[]string{"-", "-?"}, nil, []string{"-"}, ""},
	}
	for _, tt := range tests {
		var seen []string
		p := ParseEnv(daemonLike(&seen), append([]string{"/bin/d"}, tt.args...), nil)
		if !reflect.DeepEqual(seen, tt.seen) || !reflect.DeepEqual(p.Args, tt.operands) {
			t.Errorf("%q: handled %q operands %q, want %q %q", tt.args, seen, p.Args, tt.seen, tt.operands)
		}
		if got := strings.Join(p.Messages, ""); got != tt.msgs {
			t.Errorf("%q: messages %q, want %q", tt.args, got, tt.msgs)
		}
	}
}

// FuzzScan parses fuzzed argument lists (NUL-separated): no panic,
// every operand one of the arguments, and one message per error or less
// (-? counts without one).
func FuzzScan(f *testing.F) {
	for _, s := range []string{"-fc\x00x", "--conf", "-L=5\x00--\x00-f", "-D\x00pdu,all", "--config", "-\x00-?x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Split(s, "\x00")
		var seen []string
		p := ParseEnv(daemonLike(&seen), append([]string{"d"}, args...), []string{"PCP_DEBUG=" + s})
		if len(p.Args) > len(args) {
			t.Fatalf("%d operands from %d arguments", len(p.Args), len(args))
		}
		for _, a := range p.Args {
			found := false
			for _, b := range args {
				found = found || a == b
			}
			if !found {
				t.Fatalf("operand %q is none of the arguments", a)
			}
		}
		if len(p.Messages) > p.Errors {
			t.Fatalf("%d messages for %d errors", len(p.Messages), p.Errors)
		}
	})
}
