package pmval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
)

// wrapCandidate is a metric of one QA archive worth interpolating: a
// 32-bit counter near its wrap (a value past 3/4 of its range, or one
// that went down), or a string.
type wrapCandidate struct {
	archive, metric string
	span            float64 // seconds from the label's start to the last record
}

var qaBase = regexp.MustCompile(`^(.*)\.meta(\.[a-z0-9]+)?$`)

// wrapCandidates reads every single QA archive (up to 100,000 records
// each) for 32-bit counters near their wrap and for string metrics, at
// most strPer strings an archive.
func wrapCandidates(t *testing.T, strPer int) (counters, strs []wrapCandidate) {
	ents, err := os.ReadDir(clitest.QAArchives)
	if err != nil {
		pcptest.Missing(t, "QA archives are not installed (pcp-testsuite)")
	}
	seen := map[string]bool{}
	var bases []string
	for _, e := range ents {
		if m := qaBase.FindStringSubmatch(e.Name()); m != nil && !e.IsDir() && !seen[m[1]] {
			seen[m[1]] = true
			bases = append(bases, m[1])
		}
	}
	sort.Strings(bases)
	for _, b := range bases {
		c, s := scanArchive(filepath.Join(clitest.QAArchives, b), strPer)
		counters, strs = append(counters, c...), append(strs, s...)
	}
	return counters, strs
}

func scanArchive(path string, strPer int) (counters, strs []wrapCandidate) {
	if !smallPlain(path) {
		return nil, nil
	}
	a, err := archive.Open(path, archive.Options{})
	if err != nil {
		return nil, nil
	}
	defer a.Close()
	end, err := a.End()
	if err != nil {
		return nil, nil
	}
	span := end.Sub(a.Label.Start)
	if span <= 0 {
		return nil, nil
	}
	descs := map[pcp.PMID]pcp.Desc{}
	a.Meta.EachDesc(func(d pcp.Desc) { descs[d.PMID] = d })
	type key struct {
		p pcp.PMID
		i int32
	}
	last := map[key]int64{}
	near := map[pcp.PMID]bool{}
	isStr := map[pcp.PMID]bool{}
	r := a.NewReader()
	var res pcp.Result
	for range 100000 {
		if r.Next(&res) != nil {
			break
		}
		for _, vs := range res.Sets {
			d, ok := descs[vs.PMID]
			if !ok || vs.NumVal <= 0 {
				continue
			}
			if d.Type == pcp.TypeString {
				isStr[vs.PMID] = true
				continue
			}
			if d.Sem != pcp.SemCounter || (d.Type != pcp.Type32 && d.Type != pcp.TypeU32) {
				continue
			}
			for _, v := range vs.Values {
				x := int64(uint32(v.LVal))
				if d.Type == pcp.Type32 {
					x = int64(v.LVal)
					near[vs.PMID] = near[vs.PMID] || x < 0 || x > 3<<29
				} else {
					near[vs.PMID] = near[vs.PMID] || x > 3<<30
				}
				k := key{vs.PMID, v.Inst}
				if p, ok := last[k]; ok && x < p {
					near[vs.PMID] = true
				}
				last[k] = x
			}
		}
	}
	name := func(p pcp.PMID) string {
		n, err := a.Meta.Names(p)
		if err != nil || len(n) == 0 {
			return ""
		}
		return n[0]
	}
	for p := range near {
		if n := name(p); n != "" && near[p] {
			counters = append(counters, wrapCandidate{path, n, span})
		}
	}
	for p := range isStr {
		if n := name(p); n != "" {
			strs = append(strs, wrapCandidate{path, n, span})
		}
	}
	sort.Slice(counters, func(i, j int) bool { return counters[i].metric < counters[j].metric })
	sort.Slice(strs, func(i, j int) bool { return strs[i].metric < strs[j].metric })
	if len(strs) > strPer {
		strs = strs[:strPer]
	}
	return counters, strs
}

// smallPlain is an archive of uncompressed files of 4 MB at most in all,
// which both programs read in well under a second, many times over.
func smallPlain(base string) bool {
	files, _ := filepath.Glob(base + ".*")
	var size int64
	for _, f := range files {
		suffix := strings.TrimPrefix(f, base+".")
		if suffix != "meta" && suffix != "index" && strings.Trim(suffix, "0123456789") != "" {
			return false
		}
		st, err := os.Stat(f)
		if err != nil {
			return false
		}
		size += st.Size()
	}
	return len(files) > 0 && size <= 4<<20
}

// TestWrapSweep interpolates, with PCP's pmval and ours, every 32-bit
// counter of the small uncompressed QA archives that comes near its wrap
// and their string metrics, at two intervals that do not fall on the
// archives' samples (so that values are interpolated across missing
// samples and wraps), counters as rates and raw (-r), with and without
// PCP_COUNTER_WRAP, and compares every line. GOPCP_WRAP_SWEEP=all runs
// every candidate; by default every eighth counter and one string an
// archive run, and always the QA archive made for wrapping
// (sample.wrap.*).
func TestWrapSweep(t *testing.T) {
	bin := pcptest.NeedTool(t, "pmval")
	every, strPer := 8, 1
	if os.Getenv("GOPCP_WRAP_SWEEP") == "all" {
		every, strPer = 1, 1000
	}
	counters, strs := wrapCandidates(t, strPer)
	for _, v := range clitest.ArchiveEnv {
		name, value, _ := strings.Cut(v, "=")
		t.Setenv(name, value)
	}
	saved := time.Local
	t.Cleanup(func() { time.Local = saved })
	archives := map[string]bool{}
	metrics, runs, steps, diffs, crashes := 0, 0, 0, 0, 0
	compare := func(c wrapCandidate, env []string, args ...string) {
		args = append(append([]string{"-a", c.archive}, args...), c.metric)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		began := time.Now()
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = append(append(os.Environ(), clitest.ArchiveEnv...), env...)
		var wantOut, wantErr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &wantOut, &wantErr
		err := cmd.Run()
		if ctx.Err() != nil {
			t.Logf("not compared: PCP's pmval %s did not finish", strings.Join(args, " "))
			return
		}
		pcpTook := time.Since(began)
		for _, kv := range env {
			name, value, _ := strings.Cut(kv, "=")
			t.Setenv(name, value)
		}
		time.Local = time.UTC
		var out, errb bytes.Buffer
		run(context.Background(), append([]string{"pmval"}, args...), &out, &errb)
		for _, kv := range env {
			name, _, _ := strings.Cut(kv, "=")
			os.Unsetenv(name)
		}
		runs++
		if testing.Verbose() {
			t.Logf("%s pmval %s: PCP %v, ours %v", strings.Join(env, " "), strings.Join(args, " "), pcpTook.Round(time.Millisecond), (time.Since(began) - pcpTook).Round(time.Millisecond))
		}
		want, got := strings.Split(wantOut.String(), "\n"), strings.Split(out.String(), "\n")
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() < 0 {
			// libpcp corrupted its heap (a wrapped int32 counter's prior
			// value written past the result's values) and glibc
			// aborted: compare what PCP's printed before
			crashes++
			t.Logf("PCP's pmval %s died (%v): %d lines compared", strings.Join(args, " "), err, len(want)-1)
			got = got[:min(len(got), len(want)-1)]
			want = want[:len(want)-1]
			wantErr.Reset()
			errb.Reset()
		}
		steps += len(want)
		n := 0
		for i := range max(len(want), len(got)) {
			if i >= len(want) || i >= len(got) || want[i] != got[i] {
				n++
			}
		}
		if errb.String() != wantErr.String() {
			n++
		}
		if n > 0 {
			diffs += n
			t.Errorf("%s pmval %s: %d lines differ\n%s%s", strings.Join(env, " "), strings.Join(args, " "), n,
				clitest.Diff(wantOut.String(), out.String()), clitest.Diff(wantErr.String(), errb.String()))
		}
	}
	for i, c := range append(counters, strs...) {
		if i%every != 0 && filepath.Base(c.archive) != "wrap" {
			continue
		}
		archives[c.archive] = true
		metrics++
		for _, n := range []float64{53, 97} {
			interval := fmt.Sprintf("%.3f", c.span/n)
			if i < len(counters) {
				for _, env := range [][]string{nil, {"PCP_COUNTER_WRAP=1"}} {
					compare(c, env, "-t", interval)
					compare(c, env, "-r", "-t", interval)
				}
			} else {
				compare(c, nil, "-t", interval)
			}
		}
	}
	t.Logf("%d archives, %d metrics (%d counters near their wrap and %d strings found), %d runs (PCP's died in %d), %d lines compared, %d differing",
		len(archives), metrics, len(counters), len(strs), runs, crashes, steps, diffs)
}
