package main

import (
	"strings"
	"testing"
)

// FuzzConf edits arbitrary pmcd.conf files: no panic, the new line is in
// the result once, and no other line for the agent's name or domain is.
func FuzzConf(f *testing.F) {
	for _, c := range confs {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, conf string) {
		line := "simple\t253\tpipe binary /x"
		out, _, _ := confEdit([]byte(conf), "pmcd.conf", "simple", "253", line)
		if strings.Count(string(out), line+"\n") != 1 {
			t.Fatalf("the new line is not there once:\n%s", out)
		}
		// the agent lines, before [access], hold no other line for it
		for _, l := range strings.Split(string(out), "\n") {
			if accessStart.MatchString(l) {
				break
			}
			f := strings.Fields(l)
			if l != line && len(f) > 1 && (f[0] == "simple" || f[1] == "253") {
				t.Fatalf("line %q left beside the new one:\n%s", l, out)
			}
		}
		culled, _, _ := confCull(out, "pmcd.conf", "simple", "253")
		if strings.Contains(string(culled), line) {
			t.Fatalf("cull left the line:\n%s", culled)
		}
	})
}

// FuzzFragment reads arbitrary namespace fragments: no panic, and what
// reads can be added to a namespace and written.
func FuzzFragment(f *testing.F) {
	f.Add(simpleFragment)
	f.Add("a {\n b 1:2:3\n c\n}\na.c {\n d X:0:1\n}\n")
	f.Fuzz(func(t *testing.T, frag string) {
		sub, err := subtree([]byte(frag), "SIMPLE", 253)
		if err != nil {
			return
		}
		ns := &namespace{root: &node{}}
		for _, k := range sub.root.kids {
			if err := ns.add(k.name, sub, 253); err != nil {
				t.Fatalf("adding %s: %v", k.name, err)
			}
		}
		_ = ns.text()
	})
}
