package pmns

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// caseFile is the name every case's main file has, in its own directory.
const caseFile = "x.pmns"

// pmnsCase is a PMNS input, valid or not, that libpcp and we must read
// alike: the same tree, or the same refusal with the same messages.
type pmnsCase struct {
	name  string
	mode  string // "", "nocpp" (pmLoadNameSpace) or "nodups" (dupok 0)
	shell bool   // allow #shell
	text  string // the main file
	// more are other files, by path relative to the case's directory.
	more map[string]string
}

var pmnsCases = []pmnsCase{
	// Valid files.
	{name: "basic", text: "root {\n    net\n    cpu\n    dyn\t387:*:*\n}\n\nnet {\n    in 1:2:3\n    out 1:2:4\n    per\n}\n" +
		"net.per { a 1:3:0 b 1:3:1 }\ncpu { user 1:0:20 sys 1:0:21 }\n"},
	{name: "any-order", text: "cpu.util {\n user 1:0:1\n}\ncpu {\n util\n  n 1:0:0\n}\nroot {\n cpu\n}\n"},
	{name: "dups", text: "root {\n a 1:0:1\n b 1:0:1\n c\n z 1:0:1\n}\nc {\n d 1:0:1\n e 2:*:*\n}\n"},
	{name: "dups-refused", mode: "nodups", text: "root {\n a 1:0:1\n b 1:0:2\n c\n}\nc {\n d 1:0:1\n}\n"},
	{name: "dups-dynamic-nodups", mode: "nodups", text: "root {\n a 5:*:*\n b 5:*:*\n c 1:0:0\n}\n"},
	{name: "pmid-quirks", text: "root {\n a  4294967297 : 2 :3\n b 12\n c 3:*:*\n f 1:2:3:4\n g 1*:*:*\n h 4294967295:*:*\n i 0:0:0\n j 510:4095:1023\n}\n"},
	{name: "spaces", text: "\t root\t{\n\n   a\t\t1 :\t2 : 3   \n  :b 1:0:2\n\n}   \n"},
	{name: "unterminated", text: "root {\n  a 1:0:1\n  a 1:0:2\n  b 1:0:3"},
	{name: "unterminated-mixed", text: "p {\n q 1:0:2\n}\nroot {\n p 1:0:1\n p\n"},
	{name: "empty-nonterminal", text: "root {\n a\n b 1:0:1\n c\n}\na {\n}\nc {\n d\n}\nc.d {\n}\n"},
	{name: "empty-root", text: "root {\n}\n"},
	{name: "marker", text: "root {\n  a 1:0:1\n# 10 \"other.file\"\n  b 1:0:x\n}\n"},
	{name: "marker-nocpp", mode: "nocpp", text: "root {\n  a 1:0:1\n# 10 \"other.file\"\n  b 1:0:x\n}\n"},
	{name: "marker-odd", text: "# -3 \"neg\"\nroot {\n  b 1:0:x\n}\n"},
	{name: "marker-partial", text: "root {\n#5 x\n}\n"},
	{name: "marker-partial-nocpp", mode: "nocpp", text: "#0 :\n"},
	{name: "marker-overflow", text: "# 99999999999 \"big\" more\nroot {\n  b 1:0:x\n}\n"},
	{name: "no-newline", text: "root {\n  a 1:0:1\n  b 1:0:2"},
	{name: "no-newline-nocpp", mode: "nocpp", text: "root {\n  a 1:0:1\n  b 1:0:2"},
	{name: "nocpp-ok", mode: "nocpp", text: "root {\n  a 1:0:1\n}\n"},

	// Refused by the parser.
	{name: "bad-pmid-letters", text: "root {\n  a 1:0:1\n  b 1:0:x\n}\n"},
	{name: "bad-pmid-nocpp", mode: "nocpp", text: "root {\n  a 1:0:1\n  b 1:0:x\n}\n"},
	{name: "bad-domain", text: "root {\n  a 1:0:1\n  b 99999:0:1\n}\n"},
	{name: "bad-cluster", text: "root {\n  b 1:4096:0\n}\n"},
	{name: "bad-item", text: "root {\n  b\t1:0:1024\n}\n"},
	{name: "bad-dynamic-domain", text: "root {\n  b 600:*:*\n}\n"},
	{name: "illegal-pmid-short", text: "root {\n  b 1:2\n}\n"},
	{name: "illegal-pmid-star", text: "root {\n  b 1:*\n}\n"},
	{name: "illegal-pmid-allstars", text: "root {\n  b *:*:*\n}\n"},
	{name: "illegal-pmid-colons", text: "root {\n  b 1:2:3:4:5\n}\n"},
	// A line ending in ':' has no white space left at its end; libpcp then
	// reads on into stale buffer bytes, which these inputs leave harmless.
	{name: "trailing-colon", text: "root {\n a 1:2:3:\n}\n"},
	{name: "trailing-colon-short", text: "root {\n a 1:2:\n}\n"},
	{name: "trailing-colon-star", text: "root {\n a 1:*:\n b 1:0:2\n}\n"},
	{name: "dup-name", text: "root {\n  a 1:0:1\n  a 1:0:2   \n}\n"},
	{name: "dup-name-midline", text: "root {\n  a 1:0:1 b 1:0:2 a 1:0:3 }\n"},
	{name: "expected-name-or-path", text: "{\n"},
	{name: "brace-expected", text: "root a\n"},
	{name: "expected-name-or-brace", text: "root {\n 1:0:1\n}\n"},
	{name: "expected-name-pmid-brace", text: "root {\n a {\n}\n"},
	{name: "path-child", text: "root {\n a.b 1:0:1\n}\n"},
	{name: "pmid-after-pmid", text: "root {\n a 1:0:1 1:0:2\n}\n"},
	{name: "name-with-dash", text: "root {\n a-b 1:0:1\n}\n"},
	{name: "brace-glued", text: "root{\n a 1:0:1\n}\n"},
	{name: "utf8-name", text: "root {\n caf\u00e9 1:0:1\n}\n"},
	{name: "no-root", text: "a {\n b 1:0:1\n}\n"},
	{name: "empty-file", text: ""},
	{name: "multiple-root", text: "root {\n a 1:0:1\n}\nroot {\n b 1:0:2\n}\n"},
	{name: "nonterminal-undefined", text: "root {\n a\n b\n}\na {\n x 1:0:1\n}\n"},
	{name: "nonterminal-long", text: "root {\n x\n}\nx {\n " + strings.Repeat("n", 240) + "\n}\n"},
	{name: "disconnected", text: "root {\n a 1:0:1\n}\nb {\n x 1:0:2\n}\nroot.c {\n y 1:0:3\n}\n"},
	{name: "redefined-subtree", text: "root {\n a\n}\na {\n x 1:0:1\n}\na {\n y 1:0:2\n}\n"},
	{name: "leaf-and-subtree", text: "root {\n a 1:0:1\n}\na {\n x 1:0:2\n}\n"},
	{name: "long-line", text: "root {\n  a 1:0:1\n  b" + strings.Repeat("x", 260) + " 1:0:2\n}\n"},
	{name: "long-line-spaces", text: "root {\n  a 1:0:1 " + strings.Repeat(" ", 300) + "\n}\n"},
	{name: "long-line-nocpp", mode: "nocpp", text: "root {\n  a 1:0:1\n  b" + strings.Repeat("x", 260) + " 1:0:2\n}\n"},
	{name: "line-254", text: "root {\n  " + strings.Repeat("y", 246) + " 1:0:1\n}\n"},
	{name: "line-255", text: "root {\n  " + strings.Repeat("y", 247) + " 1:0:1\n}\n"},
	{name: "hash-nocpp", mode: "nocpp", text: "#define X 1\nroot {\n  a X:0:1\n}\n"},
	{name: "hash-unknown", text: "root {\n#if 0\n a 1:0:1\n}\n"},
	{name: "nul-nocpp", mode: "nocpp", text: "root {\n  a 1:0:1\n  b 1:\x000:2\n}\n"},
	{name: "nul-cpp", text: "root {\n  a 1:0:1\n  b 1:\x000:2\n c 1:0:3\n}\n"},
	{name: "dups-long-names", mode: "nodups", text: "root {\n " + strings.Repeat("a", 200) + " 1:0:1\n " + strings.Repeat("b", 200) + " 1:0:1\n}\n"},

	// pmcpp's language.
	{name: "cpp-macros", text: "/* a comment */\n#define D 30\n#define C 2 /* trailing */\n#define EMPTY\n#define Q 'a b'\n" +
		"root { /* inline */ x\n  y D:C:1\n  EMPTY z D : C : 2\n}\n#define x renamed\nx {\n q D:0:0 }\n#undef x\n#undef NOTDEFINED\n"},
	{name: "cpp-ifdef", text: "#define A\n#ifdef A\nroot {\n#else\nnot {\n#endif\n#ifndef B\n a 1:0:1\n#endif\n#ifdef B\n b 1:0:2\n#else\n c 1:0:3\n#endif\n}\n"},
	{name: "cpp-sample", text: "root {\n sample\n sampledso\n}\n#include \"pmns\"\n#define sample sampledso\n#ifdef SAMPLE\n#undef SAMPLE\n#endif\n#define SAMPLE 30\n#include \"pmns\"\n",
		more: map[string]string{"pmns": "#ifndef SAMPLE\n#define SAMPLE 29\n#endif\nsample {\n  a SAMPLE:0:1\n  b SAMPLE:0:2\n}\n"}},
	{name: "cpp-stdpmid", text: "#include <stdpmid>\nroot {\n  a PMCD:0:1\n  b PROC:*:*\n}\n",
		more: map[string]string{"var/pmns/stdpmid": "#define PMCD 2\n#define PROC 3\n"}},
	{name: "cpp-include-dirs", text: "#include \"sub/inner\"\nroot {\n  a X:0:1\n}\n",
		more: map[string]string{"sub/inner": "/* nothing */\n#include \"deeper\"\n", "deeper": "#define X 7\n"}},
	{name: "cpp-include-error-inside", text: "root {\n#include \"inner\"\n}\n",
		more: map[string]string{"inner": "  a 1:0:1\n  b 1:0:x\n"}},
	{name: "cpp-comment-multiline", text: "root {\n a 1:0:1 /* starts\n still\n ends */ b 1:0:2\n/*\n*/\n}\n"},
	{name: "cpp-skip-quirk", text: "root {\n#ifdef NOPE\n#unknown\n a 1:0:1\n#endif\n}\n"},
	{name: "cpp-word-quirk", text: "#define abc 5\nroot {\n x1abc 1abc:0:1\n}\n"},
	{name: "cpp-define-prefix", text: "#defineX 3\nroot {\n a X:0:1\n}\n"},
	{name: "cpp-missing-name", text: "root {\n  a 1:0:1\n#ifdef\n}\n"},
	{name: "cpp-illegal-name", text: "#define 1X 2\nroot {\n}\n"},
	{name: "cpp-redefine", text: "#define A 1\n#define A 1\nroot {\n}\n"},
	{name: "cpp-else-twice", text: "#ifdef A\n#else\n#endif\n#ifdef B\n#else\n#endif\nroot {\n}\n"},
	{name: "cpp-undef-else", text: "#define X 1\n#undef X\n#ifdef A\n#else\n#endif\nroot {\n}\n"},
	{name: "cpp-nested-ifdef", text: "#ifdef A\n#ifdef B\n#endif\n#endif\nroot {\n}\n"},
	{name: "cpp-endif-unmatched", text: "#endif\nroot {\n}\n"},
	{name: "cpp-else-unmatched", text: "root {\n}\n#else\n"},
	{name: "cpp-extra-text", text: "#define A 1 2\nroot {\n}\n"},
	{name: "cpp-endif-extra", text: "#ifdef A\n#endif A\nroot {\n}\n"},
	{name: "cpp-unterminated-value", text: "#define A 'abc\nroot {\n}\n"},
	{name: "cpp-unterminated-comment", text: "root {\n a 1:0:1 /* never\n}\n"},
	{name: "cpp-unterminated-if", text: "root {\n a 1:0:1\n#ifndef X\n}\n"},
	{name: "cpp-unterminated-if-true", text: "#define X\nroot {\n a 1:0:1\n#ifdef X\n}\n"},
	{name: "cpp-include-missing", text: "root {\n}\n#include \"nonexistent\"\n"},
	{name: "cpp-include-no-quote", text: "#include nonexistent\nroot {\n}\n"},
	{name: "cpp-include-unclosed", text: "#include \"abc\nroot {\n}\n"},
	{name: "cpp-include-unclosed-angle", text: "#include <abc\nroot {\n}\n"},
	{name: "cpp-include-extra", text: "#include \"inner\" more\nroot {\n}\n", more: map[string]string{"inner": "\n"}},
	{name: "cpp-include-self", text: "#include \"x.pmns\"\nroot {\n}\n"},
	{name: "cpp-include-in-false", text: "#ifdef NOPE\n#include \"nonexistent\"\n#endif\nroot {\n a 1:0:1\n}\n"},
	{name: "cpp-include-directory", text: "#include \"sub\"\nroot {\n}\n", more: map[string]string{"sub/file": "\n"}},
	{name: "cpp-shell", shell: true, text: "#shell 'echo \"#define X 5\"; echo \"root {\"'\n a X:0:1\n}\n"},
	{name: "cpp-shell-syntax", text: "#shell echo\nroot {\n}\n"},
	{name: "cpp-parse-then-cpp", text: "root {\n a 1:0:1\n}\n#endif\n"},
}

// caseOptions are our options for a case read from its directory, which
// the test makes the working directory for libpcp.
func caseOptions(c pmnsCase) Options {
	opts := Options{
		Name:         caseFile,
		NoCPP:        c.mode == "nocpp",
		NoDuplicates: c.mode == "nodups",
		SystemDir:    "var/pmns",
		AllowShell:   c.shell,
	}
	files := map[string]string{caseFile: c.text}
	for k, v := range c.more {
		files[k] = v
	}
	opts.open = func(path string) (io.Reader, error) {
		path = strings.TrimPrefix(path, "./")
		if text, ok := files[path]; ok {
			return strings.NewReader(text), nil
		}
		return nil, os.ErrNotExist
	}
	return opts
}

func caseFlags(c pmnsCase) []string {
	switch c.mode {
	case "nocpp":
		return []string{"-c"}
	case "nodups":
		return []string{"-N"}
	}
	return nil
}

// casePCP asks libpcp about a case, in a directory holding its files.
func casePCP(t *testing.T, c pmnsCase) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{caseFile: c.text}
	for k, v := range c.more {
		files[k] = v
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return answersPCPIn(t, dir, []string{"PCP_VAR_DIR=var"}, caseFlags(c), caseFile)
}

func caseOurs(c pmnsCase) string {
	tree, err := Parse(bytes.NewReader([]byte(c.text)), caseOptions(c))
	return answersOf(tree, err)
}

func TestCasesGolden(t *testing.T) {
	for _, c := range pmnsCases {
		t.Run(c.name, func(t *testing.T) {
			golden(t, "testdata/golden/cases/"+c.name+".golden", caseOurs(c), func() string {
				return casePCP(t, c)
			})
		})
	}
}

func TestCasesLive(t *testing.T) {
	for _, c := range pmnsCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			want := casePCP(t, c)
			if got := caseOurs(c); got != want {
				t.Errorf("differs from libpcp:\n%s\nlibpcp:\n%s\nus:\n%s", diff(want, got), want, got)
			}
		})
	}
}

// TestCaseErrors checks the error values a refused case gives.
func TestCaseErrors(t *testing.T) {
	for _, c := range pmnsCases {
		_, err := Parse(strings.NewReader(c.text), caseOptions(c))
		if err == nil {
			continue
		}
		perr, ok := err.(*ParseError)
		if !ok {
			t.Errorf("%s: error %T, want *ParseError", c.name, err)
			continue
		}
		if len(perr.Diags) == 0 || perr.Report() == "" || !strings.HasPrefix(err.Error(), "pmns: ") {
			t.Errorf("%s: thin error %v", c.name, fmt.Sprintf("%#v", perr))
		}
	}
}
