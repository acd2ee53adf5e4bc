package pmcd

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// accessCases are [access] sections, good and bad, whose verdicts and
// messages must be PCP's.
var accessCases = []string{
	"allow localhost : all;",
	"disallow \".*\" : store;\ndisallow \":*\" : store;",
	"allow nosuchhost.invalid : fetch;",
	"allow nosuchhost.invalid : fetch;\nallow localhost : fetch;",
	"allow 10.* : fetch;\nallow 10.* : store;\ndisallow 10.* : fetch;",
	"allow users root : fetch;",
	"allow users nosuchuser-x : fetch;",
	"allow groups root, nosuchgroup-x : fetch;",
	"allow hosts \"local:*\" : all;",
	"allow local:* : all;",
	"allow 1.2.3.* : maximum 2 connections, fetch;\nallow 1.2.* : maximum 3 connections;",
	"disallow * : all except fetch, maximum 2 connections;",
	"allow * : all except store, maximum 2 connections;",
	"allow * : all except maximum 2 connections;",
	"allow users root : unlimited connections;",
	"allow a, : all;",
	"allow a b : all;",
	"allow : all;",
	"foo a : all; allow x",
	"allow localhost : fetch, ;",
	"allow localhost : ;",
	"allow localhost : fetch store;",
	"allow localhost : all, fetch;",
	"allow localhost : fetch, all;",
	"allow localhost : all except all;",
	"allow localhost : maximum 0 connections;",
	"allow localhost : maximum 2 connections, maximum 3 connections;",
	"allow localhost : maximum 2;",
	"allow 129.127* : all;",
	"allow 1.2.3.4.* : all;",
	"allow 1.*.3 : all;",
	"allow fe80::223:14ff:feaf:* : all;",
	"allow fe80:* : all;\ndisallow :* : store;",
	"ALLOW HOSTS LocalHost : ALL EXCEPT Store;",
	"\n\n",
	"allow localhost : all",
	"allow localhost : all;\nallow 127.0.0.1 : store;\ndisallow 127.0.0.1 : store;",
}

// TestAccessParseLikePCP runs PCP's pmcd -v on each case and compares its
// verdict and its "config[line N]" messages with ParseConf's.
func TestAccessParseLikePCP(t *testing.T) {
	t.Parallel()
	in := testbed.Need(t)
	dir := t.TempDir()
	for i, body := range accessCases {
		text := "pmcd 2 dso pmcd_init /var/lib/pcp/pmdas/pmcd/pmda_pmcd.so\n[access]\n" + body + "\n"
		path := filepath.Join(dir, "pmcd.conf")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(in.PMCD, "-v", "-c", path).CombinedOutput()
		pcpOK := err == nil
		var want []string
		for _, l := range strings.Split(string(out), "\n") {
			if strings.Contains(l, "config[line") {
				want = append(want, l)
			}
		}
		c, err := LoadConf(path)
		var got []string
		if c != nil {
			got = append(got, c.Warnings...)
		}
		if ce, ok := err.(*ConfError); ok {
			got = append(got, ce.Lines...)
		}
		got = slices.DeleteFunc(got, func(l string) bool { return !strings.Contains(l, "config[line") })
		if (err == nil) != pcpOK || !slices.Equal(sortedCopy(got), sortedCopy(want)) {
			t.Errorf("case %d %q:\nours (ok=%v):\n%s\nPCP's (ok=%v):\n%s", i, body, err == nil,
				strings.Join(got, "\n"), pcpOK, strings.Join(want, "\n"))
		}
	}
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestAccessFileLikePCP gives PCP's pmcd -v and ours a pmcd.conf.access
// file beside pmcd.conf, alone and after an [access] section.
func TestAccessFileLikePCP(t *testing.T) {
	t.Parallel()
	in := testbed.Need(t)
	for i, c := range []struct{ section, file string }{
		{"", "allow localhost : all;\n"},
		{"[access]\ndisallow \".*\" : store;\n", "allow localhost : all;\nbogus;\n"},
		{"", "[access]\nallow localhost : all;\n"},
		// Nothing valid: the error names the line after the file's last.
		{"", "allow nosuchhost.invalid : all;\n"},
		{"", "allow nosuchhost.invalid : all;"},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "pmcd.conf")
		if err := os.WriteFile(path, []byte("pmcd 2 dso pmcd_init /var/lib/pcp/pmdas/pmcd/pmda_pmcd.so\n"+c.section), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+".access", []byte(c.file), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(in.PMCD, "-v", "-c", path).CombinedOutput()
		var want []string
		for _, l := range strings.Split(string(out), "\n") {
			if strings.Contains(l, "config[line") {
				want = append(want, l)
			}
		}
		conf, gerr := LoadConf(path)
		var got []string
		if conf != nil {
			got = append(got, conf.Warnings...)
		}
		if ce, ok := gerr.(*ConfError); ok {
			got = append(got, ce.Lines...)
		}
		got = slices.DeleteFunc(got, func(l string) bool { return !strings.Contains(l, "config[line") })
		if (gerr == nil) != (err == nil) || !slices.Equal(sortedCopy(got), sortedCopy(want)) {
			t.Errorf("case %d: ours (ok=%v):\n%s\nPCP's (ok=%v):\n%s", i, gerr == nil, strings.Join(got, "\n"), err == nil, strings.Join(want, "\n"))
		}
		if gerr == nil && conf.ACL == nil {
			t.Errorf("case %d: no access control from the file", i)
		}
	}
}
