package main

import "strings"

// getopt walks args as glibc's getopt(3) does for PCP's pmtrace, whose
// options are short only ("S:c:e:h:qv:?"): clusters such as -qv3, an
// option's argument joined or in the next word, operands anywhere (GNU
// permutes them after the options), "--" ending the options. Each option
// found is handed to opt (with its argument, or "" when it takes none);
// each mistake to bad, worded as getopt words it. The operands are
// returned in order.
func getopt(args []string, spec string, opt func(c byte, arg string), bad func(msg string)) []string {
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(operands, args[i+1:]...)
		}
		if len(a) < 2 || a[0] != '-' {
			operands = append(operands, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			k := strings.IndexByte(spec, c)
			if c == ':' || k < 0 {
				bad("invalid option -- '" + string(c) + "'")
				continue
			}
			if k+1 >= len(spec) || spec[k+1] != ':' {
				opt(c, "")
				continue
			}
			switch {
			case j+1 < len(a):
				opt(c, a[j+1:])
			case i+1 < len(args):
				i++
				opt(c, args[i])
			default:
				bad("option requires an argument -- '" + string(c) + "'")
			}
			break
		}
	}
	return operands
}
