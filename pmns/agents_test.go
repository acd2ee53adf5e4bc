package pmns

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// answers is everything the tests ask about one file: on success the
// dump, the PMIDs' names and all children; on failure the error code and
// what PCP prints on its standard error.
func answersOurs(path string, opts Options) string {
	tree, err := LoadWith(path, opts)
	return answersOf(tree, err)
}

func answersOf(tree *Tree, err error) string {
	if err != nil {
		var report string
		if perr, ok := err.(*ParseError); ok {
			report = perr.Report()
		}
		return ours(nil, err, "load") + "== stderr\n" + report
	}
	var b strings.Builder
	for _, cmd := range []string{"dump", "names", "children"} {
		b.WriteString("== " + cmd + "\n" + ours(tree, nil, cmd))
	}
	return b.String()
}

func answersPCP(t *testing.T, env, flags []string, path string) string {
	t.Helper()
	return answersPCPIn(t, "", env, flags, path)
}

func answersPCPIn(t *testing.T, dir string, env, flags []string, path string) string {
	t.Helper()
	out, stderr := harnessIn(t, dir, env, append(flags, path, "all")...)
	if strings.HasPrefix(out, "load: ") {
		return out + "== stderr\n" + stderr
	}
	return out
}

// agentFiles are the agents' PMNS files kept in testdata: some PCP loads
// (the "root" files, which include stdpmid and the agent's "pmns"), and some
// it refuses (a "pmns" on its own lacks its macros and its root).
func agentFiles(t *testing.T) []string {
	files, err := filepath.Glob("testdata/agents/*/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no agent files in testdata: %v", err)
	}
	return files
}

func TestAgentPMNSGolden(t *testing.T) {
	for _, path := range agentFiles(t) {
		t.Run(path, func(t *testing.T) {
			got := answersOurs(path, Options{SystemDir: testSysDir})
			golden(t, "testdata/golden/"+strings.TrimPrefix(path, "testdata/")+".golden", got, func() string {
				return answersPCP(t, hermeticEnv, nil, path)
			})
		})
	}
}

// TestAgentPMNSLive compares our reading of every PMNS file installed
// with PCP's agents, and of the system PMNS's parts, with libpcp's.
func TestAgentPMNSLive(t *testing.T) {
	var files []string
	for _, pattern := range []string{
		"/var/lib/pcp/pmdas/*/root*", "/var/lib/pcp/pmdas/*/pmns*", "/var/lib/pcp/pmns/root*",
	} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	if len(files) == 0 {
		pcptest.Missing(t, "no PCP agents' PMNS files are installed")
	}
	for _, path := range files {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			want := answersPCP(t, nil, nil, path)
			if got := answersOurs(path, Options{}); got != want {
				t.Errorf("differs from libpcp:\n%s", diff(want, got))
			}
		})
	}
}
