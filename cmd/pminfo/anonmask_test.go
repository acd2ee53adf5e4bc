package main

import (
	"regexp"
	"strings"
)

var bracketed = regexp.MustCompile(`\[[^]]*\]$`)

// maskAnonHelp blanks the help text of the anonymous metrics event.flags
// and event.missed on both sides: gopcp writes its own, so only where
// the text appears is compared.
func maskAnonHelp(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	anon, help := false, false
	for _, line := range lines {
		switch {
		case help && line == "":
			help = false
		case help:
			continue
		case line == "Help:":
			help = anon
		case line != "" && line[0] != ' ':
			anon = strings.HasPrefix(line, "event.flags") || strings.HasPrefix(line, "event.missed")
			if anon {
				line = bracketed.ReplaceAllString(line, "[ANON]")
			}
		case anon && strings.HasPrefix(line, "    ["):
			line = bracketed.ReplaceAllString(line, "[ANON]")
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
