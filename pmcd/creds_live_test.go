package pmcd_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestCredentialsToAgents connects PCP's pminfo to each daemon's Unix
// socket and compares what PCP's sample agent, run with -D attr, logs of
// the attributes pmcd forwarded: the client's user, group and process
// ids from the socket's peer credentials, as ATTR PDUs.
func TestCredentialsToAgents(t *testing.T) {
	t.Parallel()
	in := testbed.Need(t)
	dir := t.TempDir()
	root := filepath.Join(dir, "root_sample")
	pmns := filepath.Join(in.Var("PCP_PMDAS_DIR"), "sample", "pmns")
	text := "root {\n\tsample\n}\n\n#define SAMPLE 29\n#include \"" + pmns + "\"\n"
	if err := os.WriteFile(root, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(in.Var("PCP_PMDAS_DIR"), "sample", "pmdasample")
	agents := []testbed.Agent{testbed.PMCDAgent(), testbed.PipeAgent("sample", 29, root, bin, "-d", "29", "-D", "attr")}
	outs := compareAtEnd(t)
	for _, b := range bedStarters {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			bed := b.start(t, testbed.Options{Agents: agents})
			res := bed.Run("pminfo", "-h", "unix:"+bed.SocketPath(), "-f", "sample.long.one")
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			// The agent logs in its working directory: the bed's log
			// directory for PCP's pmcd, $PCP_LOG_DIR/pmcd for ours.
			logs, _ := filepath.Glob(filepath.Join(bed.Dir(), "log", "sample.log"))
			more, _ := filepath.Glob(filepath.Join(bed.Dir(), "log", "pmcd", "sample.log"))
			var attrs []string
			eventually(t, "attributes in the agent's log", func() (bool, string) {
				attrs = attrs[:0]
				for _, l := range append(logs, more...) {
					b, _ := os.ReadFile(l)
					for _, line := range strings.Split(string(b), "\n") {
						if i := strings.Index(line, "ttr"); i > 0 && strings.Contains(line, "id=") {
							attrs = append(attrs, normAttr.ReplaceAllString(line[i-1:], "${1}N"))
						}
					}
				}
				return len(attrs) >= 3, strings.Join(attrs, "\n")
			})
			outs.record(b.name, "attributes", strings.Join(attrs, "\n"))
		})
	}
}

// normAttr hides the client's process id and number, which differ
// between runs.
var normAttr = regexp.MustCompile(`(processid=|ctx=)\d+`)

// TestCredentialLabels compares the context labels of a Unix-socket
// client, which carry its user and group ids, and of a TCP client, which
// do not, between PCP's pmcd and ours.
func TestCredentialLabels(t *testing.T) {
	t.Parallel()
	outs := compareAtEnd(t)
	for _, b := range bedStarters {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			bed := b.start(t, testbed.Options{})
			var all string
			for _, host := range []string{"unix:" + bed.SocketPath(), bed.Host()} {
				res := bed.Run("pminfo", "-h", host, "-l", "pmcd.version", "sample.long.one")
				if res.Err != nil {
					t.Fatal(res.Err)
				}
				all += res.Stdout
			}
			outs.record(b.name, "labels", all)
		})
	}
}
