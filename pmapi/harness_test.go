package pmapi

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// req is one request to testdata/libpcp_harness.py, which answers it by
// calling libpcp itself.
type req map[string]any

// answer is libpcp's answer to one req; which fields are set depends on
// the request.
type answer struct {
	Sts    int32    `json:"sts"`
	PMIDs  []uint32 `json:"pmids"`
	Name   *string  `json:"name"`
	Names  []string `json:"names"`
	Status []int32  `json:"status"`
	Desc   *hDesc   `json:"desc"`
	Descs  []hDesc  `json:"descs"`
	Insts  []int32  `json:"insts"`
	Text   *string  `json:"text"`
	Sets   []hSet   `json:"sets"`
}

type hDesc struct {
	PMID  uint32 `json:"pmid"`
	Type  int32  `json:"type"`
	InDom uint32 `json:"indom"`
	Sem   int32  `json:"sem"`
	Units uint32 `json:"units"`
}

// hSet is a label set (labels requests) or a value set (fetch requests).
type hSet struct {
	Inst    int32      `json:"inst"`
	NLabels int32      `json:"nlabels"`
	JSON    string     `json:"json"`
	Labels  [][5]int32 `json:"labels"`
	PMID    uint32     `json:"pmid"`
	NumVal  int32      `json:"numval"`
	Insts   []int32    `json:"insts"`
}

// askLibpcp runs the harness against spec (with a local namespace file
// when nsFile is not empty) and returns libpcp's answers. With bed nil,
// spec is "archive:PATH" and the harness runs on its own.
func askLibpcp(t *testing.T, bed *testbed.PMCD, spec, nsFile string, reqs []req) []answer {
	t.Helper()
	in, err := json.Marshal(reqs)
	if err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("testdata/libpcp_harness.py")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{script, spec}
	if nsFile != "" {
		args = append(args, nsFile)
	}
	var stdout, stderr string
	if bed != nil {
		res := bed.RunInput(in, "python3", args...)
		if res.Err != nil {
			t.Fatalf("libpcp harness: %v\n%s", res.Err, res.Stderr)
		}
		stdout, stderr = res.Stdout, res.Stderr
	} else {
		// An archive needs no pmcd: libpcp reads the files.
		testbed.Need(t)
		cmd := exec.Command("python3", args...)
		cmd.Env = append(os.Environ(), noDerived)
		cmd.Stdin = bytes.NewReader(in)
		var se bytes.Buffer
		cmd.Stderr = &se
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("libpcp harness: %v\n%s", err, se.Bytes())
		}
		stdout, stderr = string(out), se.String()
	}
	var out []answer
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("libpcp harness output: %v\n%s\n%s", err, stdout, stderr)
	}
	if len(out) != len(reqs) {
		t.Fatalf("libpcp harness: %d answers to %d requests", len(out), len(reqs))
	}
	return out
}

// noDerived keeps libpcp in the tools and the harness from loading the
// system's derived metrics, which this package does not provide yet.
const noDerived = "PCP_DERIVED_CONFIG="

// startBed starts a private pmcd with the sample agent for one test.
func startBed(t *testing.T) *testbed.PMCD {
	t.Helper()
	return testbed.StartPMCD(t, testbed.Options{Env: []string{noDerived}})
}

// dial connects a HostContext to the bed, failing the test on error.
func dial(t *testing.T, bed *testbed.PMCD, opts ...Option) *HostContext {
	t.Helper()
	ctx := testContext(t)
	c, err := NewHostContext(ctx, bed.Host(), opts...)
	if err != nil {
		t.Fatalf("NewHostContext(%q): %v", bed.Host(), err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// testContext bounds a test's calls generously; nothing asserts on time.
func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}
