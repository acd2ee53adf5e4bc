package main

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// accessStart is the line that begins pmcd.conf's [access] section.
var accessStart = regexp.MustCompile(`^[ \t]*\[[ \t]*access[ \t]*\]`)

// confEdit rewrites pmcd.conf as PCP's Install and Remove scripts
// (pmdaproc.sh) do: blank lines dropped, the agent lines (all before
// [access]) with any line for name or for domain removed, the new line
// (if any) added, the agent lines sorted numerically on their domain, a
// blank line, then the [access] section as it was. Warnings say which
// other agent's line was culled for sharing the name or the domain.
func confEdit(conf []byte, path, name, domain, line string) (out []byte, warnings []string, found bool) {
	// pmdaproc.sh's files start with an empty line that the first line
	// its awk writes replaces.
	var body, access []string
	inAccess := false
	for _, l := range strings.Split(strings.TrimSuffix(string(conf), "\n"), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if accessStart.MatchString(l) {
			inAccess = true
		}
		if inAccess {
			access = append(access, l)
			continue
		}
		var f2 string
		if len(f) > 1 {
			f2 = f[1]
		}
		switch {
		case f[0] == name && f2 == domain:
			found = true
			continue
		case f[0] == name && f2 != domain:
			warnings = append(warnings, fmt.Sprintf("Warning: %s[%d] culling entry with same PMDA name (%s) but different domain (%s not %s)", path, len(f), name, f2, domain))
			found = true
			continue
		case f[0] != name && f2 == domain:
			warnings = append(warnings, fmt.Sprintf("Warning: %s[%d] culling entry with same PMDA domain (%s) but different name (%s not %s)", path, len(f), domain, f[0], name))
			continue
		}
		body = append(body, l)
	}
	if len(body) == 0 {
		body = []string{""}
	}
	if len(access) == 0 {
		access = []string{""}
	}
	if line != "" {
		body = append(body, line)
	}
	sortNumericK2(body)
	var b bytes.Buffer
	for _, l := range body {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n")
	for _, l := range access {
		b.WriteString(l + "\n")
	}
	return b.Bytes(), warnings, found
}

// sortNumericK2 sorts as "LC_COLLATE=POSIX sort -n -k2" does: on the
// leading number of the second blank-separated field (0 when it has
// none), ties broken by comparing whole lines bytewise.
func sortNumericK2(lines []string) {
	key := func(l string) float64 {
		f := strings.Fields(l)
		if len(f) < 2 {
			return 0
		}
		s := f[1]
		i := 0
		if i < len(s) && s[i] == '-' {
			i++
		}
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
			i++
		}
		v, _ := strconv.ParseFloat(s[:i], 64)
		return v
	}
	sort.SliceStable(lines, func(a, b int) bool {
		ka, kb := key(lines[a]), key(lines[b])
		if ka != kb {
			return ka < kb
		}
		return lines[a] < lines[b]
	})
}

// confCull removes an agent's line as PCP's Remove scripts do: every
// line for name with domain goes, as do lines sharing only the name or
// only the domain (with a warning each); the rest of the file is left as
// it is. found reports whether anything went.
func confCull(conf []byte, path, name, domain string) (out []byte, warnings []string, found bool) {
	var b bytes.Buffer
	lines := strings.SplitAfter(string(conf), "\n")
	for _, l := range lines {
		if l == "" {
			continue
		}
		f := strings.Fields(l)
		var f1, f2 string
		if len(f) > 0 {
			f1 = f[0]
		}
		if len(f) > 1 {
			f2 = f[1]
		}
		switch {
		case f1 == name && f2 == domain:
			found = true
			continue
		case f1 == name && f2 != domain:
			warnings = append(warnings, fmt.Sprintf("Warning: %s[%d] culling entry with same PMDA name (%s) but different domain (%s not %s)", path, len(f), name, f2, domain))
			found = true
			continue
		case f1 != name && f2 == domain:
			warnings = append(warnings, fmt.Sprintf("Warning: %s[%d] culling entry with same PMDA domain (%s) but different name (%s not %s)", path, len(f), domain, f1, name))
			found = true
			continue
		}
		b.WriteString(l)
	}
	return b.Bytes(), warnings, found
}

// confDomain is the domain of name's line in pmcd.conf, if it has one.
func confDomain(conf []byte, name string) (string, bool) {
	for _, l := range strings.Split(string(conf), "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[0] == name {
			return f[1], true
		}
	}
	return "", false
}
