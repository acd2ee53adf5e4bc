// Command pmerr is PCP's pmerr(1): it prints the text of each PCP error
// code given (decimal, or hexadecimal after 0x; a positive code is taken
// as its negation, with a note), or with -l every code of libpcp's own
// with its PM_ERR_ name. Its messages, output and exit statuses are PCP
// 6.0.3's, which reads its arguments with sscanf rather than an option
// parser: only the first argument may be an option.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/gopcp/gopcp/pcp"
)

func main() {
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

const usage = "Usage: pmerr [options] [code]\n\n" +
	"  -l, --list   causes all known error codes to be listed\n"

func run(_ context.Context, argv []string, stdout, stderr io.Writer) int {
	args := argv[1:]
	if len(args) > 0 {
		switch a := args[0]; {
		case a == "-l" || a == "--list":
			fmt.Fprintf(stdout, "  Code  Symbolic Name          Message\n")
			for _, e := range pcp.KnownErrors() {
				fmt.Fprintf(stdout, "%6d  %-22s %s\n", e.Code, e.Symbol, e.Text)
			}
			// PCP's pmerr ends a listing with status 1
			return 1
		case a == "-?" || a == "--help":
			fmt.Fprint(stderr, usage)
			return 1
		case at(a, 0) == '-' && !isHexDigit(at(a, 1)):
			// a leading '-' and a hex digit is a negative code
			fmt.Fprintf(stderr, "Illegal option -- %s\n%s", a[1:], usage)
			return 1
		}
	}
	for _, a := range args {
		code, ok := parseCode(a)
		if !ok {
			fmt.Fprintf(stdout, "Cannot decode \"%s\" - neither decimal nor hexadecimal\n", a)
			continue
		}
		if code > 0 {
			code = -code
			fmt.Fprintf(stdout, "Code is positive, assume you mean %d\n", code)
		}
		fmt.Fprintf(stdout, "Code: %d 0x%x Text: %s\n", code, uint32(code), pcp.ErrorText(code))
	}
	return 0
}

// at is s[i], or NUL past its end as in a C string.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}
