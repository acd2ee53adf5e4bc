package main

import (
	"io"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"
)

// FuzzCommandLine feeds the scanner and parser arbitrary lines, and runs
// what parses (except open, wait and namespace, which would start
// programs, sleep or read files) with no agent open: nothing may panic,
// and every error mark must fall inside the line.
func FuzzCommandLine(f *testing.F) {
	for _, s := range []string{
		"fetch 29.0.1, 29.0.2 sample.long.one\n", "instance 29.1 \"red\"\n", "profile -1 none\n",
		"label cluster 29.0\n", "store 1.2.3 \"4\"\n", "debug pdu -fetch 3, all\n", "attr \"container\" \"x\"\n",
		"\"unterminated\n", "desc 1.2.3 4 5\n", "help open\n", "text indom 0x10\n", "?\n", "#\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Count(line, "\n") > 1 {
			line = line[:strings.IndexByte(line, '\n')+1]
		}
		tree := pmns.New()
		tree.Add("sample.long.one", pcp.NewPMID(29, 0, 10))
		s := &session{stdout: io.Discard, stderr: io.Discard, tree: tree, prog: "dbpmda", nsName: "x"}
		s.resetProfile()
		ps := &parser{lx: &lexer{line: line}, s: s}
		st, ok := ps.parse()
		for _, p := range ps.problems {
			if p.at < 0 || p.at > len(line) {
				t.Fatalf("mark %d outside %q", p.at, line)
			}
		}
		if !ok {
			return
		}
		switch st.cmd {
		case "open", "wait", "namespace":
			return
		}
		s.exec(st)
	})
}
