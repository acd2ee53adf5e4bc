package getopt

import (
	"fmt"
	"strings"
)

// UsageText is the usage message of pmUsageMessage: the synopsis, then each
// documented option with its help at column 24, or on the next line when
// the option's own text is too wide.
func UsageText(cmd *Command, name string) string {
	var b strings.Builder
	syn := cmd.Usage
	if syn == "" {
		syn = "[options]"
	}
	fmt.Fprintf(&b, "Usage: %s %s\n", name, syn)
	for _, o := range cmd.Options {
		if o.Help == "" {
			continue
		}
		if o.header {
			fmt.Fprintf(&b, "\n%s:\n", o.Help)
			continue
		}
		arg := o.Arg
		var s string
		switch {
		case o.Long != "" && o.Short != 0 && arg != "":
			s = fmt.Sprintf("  -%c %s, --%s=%s", o.Short, arg, o.Long, arg)
		case o.Long != "" && o.Short != 0:
			s = fmt.Sprintf("  -%c, --%s", o.Short, o.Long)
		case o.Long != "" && arg != "":
			s = fmt.Sprintf("  --%s=%s", o.Long, arg)
		case o.Long != "":
			s = fmt.Sprintf("  --%s", o.Long)
		case arg != "":
			s = fmt.Sprintf("  -%c %s", o.Short, arg)
		default:
			s = fmt.Sprintf("  -%c", o.Short)
		}
		b.WriteString(s)
		if len(s) < 24 {
			fmt.Fprintf(&b, "%*s%s\n", 24-len(s), "", o.Help)
		} else {
			fmt.Fprintf(&b, "\n%24s%s\n", "", o.Help)
		}
	}
	return b.String()
}

// Report is what pmUsageMessage prints after a failed or -V parse: the
// messages gathered, then the usage message unless the problem was a
// runtime one or -V asked to exit.
func (p *Parsed) Report(cmd *Command) string {
	s := p.Direct + strings.Join(p.Messages, "")
	if p.RuntimeErr || p.Exit {
		return s
	}
	return s + UsageText(cmd, p.name)
}

// Done reports whether the tool should stop after parsing, and with what
// status: 1 for errors, 0 for -V.
func (p *Parsed) Done() (bool, int) {
	if p.Exit {
		return true, 0
	}
	if p.Errors > 0 {
		return true, 1
	}
	return false, 0
}
