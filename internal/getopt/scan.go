package getopt

import (
	"fmt"
	"strings"
)

// Scan walks argv (after argv[0]) as GNU getopt does: every bad option
// is reported and parsing goes on, long options may be abbreviated to a
// unique prefix, and operands may come between options (unless POSIX).
// Each option is handed to its handler in turn; Args gets the operands.
func (p *Parsed) Scan(cmd *Command, argv []string) {
	var args []string
	if len(argv) > 1 {
		args = argv[1:]
	}
	p.Args = p.scan(cmd, args)
}

func (p *Parsed) scan(cmd *Command, args []string) []string {
	operands := []string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(operands, args[i+1:]...)
		case strings.HasPrefix(a, "--"):
			name, value, hasValue := strings.Cut(a[2:], "=")
			o, ok := p.longOption(cmd, name, a[2:])
			if !ok {
				continue
			}
			switch {
			case o.Arg == "" && hasValue:
				p.Errorf("option '--%s' doesn't allow an argument", o.Long)
			case o.Arg == "" || hasValue:
				p.set(cmd, o, value)
			case i+1 < len(args):
				i++
				p.set(cmd, o, args[i])
			default:
				p.Errorf("option '--%s' requires an argument", o.Long)
			}
		case len(a) > 1 && a[0] == '-':
			// a cluster of short options, each handled on its
			// own; the first that takes an argument ends the cluster,
			// taking the rest of it or else the next argument
			cluster := a[1:]
			for j, c := range cluster {
				o, ok := shortOption(cmd, c)
				if !ok {
					p.Errorf("invalid option -- '%c'", c)
					continue
				}
				if o.Arg == "" {
					p.set(cmd, o, "")
					continue
				}
				rest := cluster[j+len(string(c)):]
				switch {
				case rest != "":
					p.set(cmd, o, rest)
				case i+1 < len(args):
					i++
					p.set(cmd, o, args[i])
				default:
					p.Errorf("option requires an argument -- '%c'", c)
				}
				break
			}
		default:
			if cmd.POSIX {
				return append(operands, args[i:]...)
			}
			operands = append(operands, a)
		}
	}
	return operands
}

func shortOption(cmd *Command, c rune) (Option, bool) {
	for _, o := range cmd.Options {
		if !o.header && !o.LongOnly && o.Short == c {
			return o, true
		}
	}
	return Option{}, false
}

// longOption finds a long option by its name or a prefix of it, as GNU
// getopt does, reporting unknown and ambiguous names in its words (text
// is the argument after the dashes, "=value" included).
func (p *Parsed) longOption(cmd *Command, name, text string) (Option, bool) {
	var found []Option
	for _, o := range cmd.Options {
		if o.header || o.Long == "" {
			continue
		}
		if o.Long == name {
			return o, true
		}
		if strings.HasPrefix(o.Long, name) {
			found = append(found, o)
		}
	}
	switch len(found) {
	case 0:
		p.Errorf("unrecognized option '--%s'", text)
		return Option{}, false
	case 1:
		return found[0], true
	}
	// getopt names the first match, then the others latest first
	var b strings.Builder
	fmt.Fprintf(&b, "option '--%s' is ambiguous; possibilities: '--%s'", text, found[0].Long)
	for i := len(found) - 1; i > 0; i-- {
		fmt.Fprintf(&b, " '--%s'", found[i].Long)
	}
	p.Errorf("%s", b.String())
	return Option{}, false
}
