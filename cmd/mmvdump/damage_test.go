package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/mmv"
)

// damage is one change to a sound file: cut it to cut bytes (when cut
// is not negative), or write the little-endian word val of size bytes
// at off.
type damage struct {
	name string
	cut  int
	off  int
	size int
	val  uint64
}

func (d damage) apply(b []byte) []byte {
	b = bytes.Clone(b)
	if d.cut >= 0 {
		return b[:min(d.cut, len(b))]
	}
	if d.off+d.size > len(b) {
		return b
	}
	if d.size == 4 {
		binary.LittleEndian.PutUint32(b[d.off:], uint32(d.val))
	} else {
		binary.LittleEndian.PutUint64(b[d.off:], d.val)
	}
	return b
}

func cut(n int) damage { return damage{name: fmt.Sprintf("cut at %d", n), cut: n} }

func set(what string, off, size int, val uint64) damage {
	return damage{name: fmt.Sprintf("%s (@%d) = %#x", what, off, val), cut: -1, off: off, size: size, val: val}
}

const wrap = 1<<64 - 8 // an offset whose sum with a record's size wraps

// fields are the offsets of the words worth damaging in the first
// record of each kind of section (names and payloads are left alone).
var fields = map[[2]int32][]int{
	{mmv.TOCInDoms, 1}: {0, 8, 16, 24}, {mmv.TOCInDoms, 2}: {0, 8, 16, 24},
	{mmv.TOCInstances, 1}: {0, 8}, {mmv.TOCInstances, 2}: {0, 8, 16},
	{mmv.TOCMetrics, 1}: {64, 72, 80, 88, 96}, {mmv.TOCMetrics, 2}: {0, 8, 16, 24, 32, 40},
	{mmv.TOCValues, 1}: {0, 8, 16, 24}, {mmv.TOCValues, 2}: {0, 8, 16, 24},
	{mmv.TOCLabels, 2}: {0, 8},
}

// damages are the cuts and changes made to b: every few bytes through
// the header and table of contents, then sparser; each entry's type,
// count and offset set to what PCP refuses, skips or cannot bound, the
// offset also to the previous entry's (sections laid over each other,
// the first entry's left sound); and each word of each section's first record pointed past the end and
// at an offset that wraps.
func damages(b []byte, words bool) []damage {
	le := binary.LittleEndian
	version := int32(le.Uint32(b[4:]))
	if version > 2 {
		version = 2 // version 3 adds labels to version 2's records
	}
	tocs := int(le.Uint32(b[24:]))
	toc := mmv.HeaderSize + tocs*mmv.TOCSize
	var ds []damage
	for n := 0; n <= toc; n += 6 {
		ds = append(ds, cut(n))
	}
	for n := toc + 1; n < len(b); n += (len(b)-toc)/10 + 1 {
		ds = append(ds, cut(n))
	}
	size := uint64(len(b))
	for i := range tocs {
		base := mmv.HeaderSize + i*mmv.TOCSize
		e := fmt.Sprintf("toc[%d]", i)
		ds = append(ds,
			set(e+".type", base, 4, 9),
			set(e+".count", base+4, 4, 0),
			set(e+".count", base+4, 4, 0xffffffff),
			set(e+".count", base+4, 4, 0x7fffffff),
			set(e+".offset", base+8, 8, size-8),
			set(e+".offset", base+8, 8, wrap),
			// the section laid over the previous entry's
			set(e+".offset", base+8, 8, le.Uint64(b[max(base-8, 48):])))
		if !words {
			continue
		}
		typ := int32(le.Uint32(b[base:]))
		first := int(le.Uint64(b[base+8:]))
		for _, w := range fields[[2]int32{typ, version}] {
			f := fmt.Sprintf("toc[%d] first record word %d", i, w)
			ds = append(ds, set(f, first+w, 8, size+8), set(f, first+w, 8, wrap))
		}
	}
	return ds
}

// section is the offset of the first section of type typ in b.
func section(b []byte, typ int32) int {
	le := binary.LittleEndian
	for i := range int(le.Uint32(b[24:])) {
		base := mmv.HeaderSize + i*mmv.TOCSize
		if int32(le.Uint32(b[base:])) == typ {
			return int(le.Uint64(b[base+8:]))
		}
	}
	return 0
}

// elapsed is a running timer's line, which depends on the time.
var elapsed = regexp.MustCompile(`= -?\d+ (\(value=-?\d+/extra=-\d+\))`)

// TestDamagedAgainstPCP cuts and changes real MMV files (a QA file of
// version 1, one of version 2 from libpcp_mmv and one of version 3
// with labels from package mmv) and compares PCP's mmvdump with ours
// on each: stdout, stderr and exit status. Where PCP reads outside its
// mapping (a wrapped offset, its strings section's mismatched step, a
// string with no end) it crashes or prints stray memory, and ours must
// name the fault instead; the rows of strays say which inputs do.
func TestDamagedAgainstPCP(t *testing.T) {
	pcpDump := filepath.Join(testbed.Need(t).Var("PCP_PMDAS_DIR"), "mmv", "mmvdump")
	if _, err := os.Stat(pcpDump); err != nil {
		pcptest.Missing(t, "PCP's mmvdump is not installed")
	}
	srcs := map[string][]byte{}
	for _, p := range files(t) {
		switch filepath.Base(p) {
		case "pytest", "c-v2", "go":
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			srcs[filepath.Base(p)] = b
		}
	}
	if len(srcs) != 3 {
		t.Fatalf("found %d of the 3 files", len(srcs))
	}
	// PCP's mmvdump crashes on some of these: no core from it, to the
	// system's collector or (core_pattern "core") into this package
	pcptest.NoCores(t)
	// inputs on which PCP's mmvdump reads outside its mapping
	strays := []struct {
		src string
		d   damage
	}{
		{"pytest", set("indoms offset wraps", 48, 8, wrap)},
		{"pytest", set("values offset wraps", 96, 8, wrap)},
		// its check steps by 32 bytes, its reads by 256
		{"pytest", set("strings count huge", 108, 4, 0x7fffffff)},
		{"go", set("first metric's name wraps", section(srcs["go"], mmv.TOCMetrics), 8, 1<<64-100)},
		{"go", set("first value's metric wraps", section(srcs["go"], mmv.TOCValues)+16, 8, 1<<64-16)},
	}
	type job struct {
		src    string
		d      damage
		strays bool
	}
	var jobs []job
	for _, s := range strays {
		jobs = append(jobs, job{s.src, s.d, true})
	}
	for _, name := range []string{"pytest", "c-v2", "go"} {
		for _, d := range damages(srcs[name], name != "c-v2") {
			jobs = append(jobs, job{name, d, false})
		}
	}
	dir := t.TempDir()
	var (
		mu               sync.Mutex
		same, crashed, n int
		wg               sync.WaitGroup
		sem              = make(chan struct{}, 4)
	)
	for k, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			b := j.d.apply(srcs[j.src])
			p := filepath.Join(dir, fmt.Sprintf("%s-%d", j.src, k))
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Error(err)
				return
			}
			var out, errb bytes.Buffer
			cmd := exec.Command(pcpDump, p)
			cmd.Stdout, cmd.Stderr, cmd.Dir = &out, &errb, dir
			pcpCode, signaled := 0, false
			if err := cmd.Run(); err != nil {
				var exit *exec.ExitError
				if !errors.As(err, &exit) {
					t.Errorf("%s: %v", pcpDump, err)
					return
				}
				pcpCode = exit.ExitCode()
				signaled = exit.Sys().(syscall.WaitStatus).Signaled()
			}
			var got, gotErr bytes.Buffer
			code, strayed := 1, false
			if b, err := readFile(p); err != nil {
				gotErr.WriteString(perror(p, err) + "\n")
			} else {
				code, strayed = dumpFile(&got, p, b)
			}
			name := j.src + ": " + j.d.name
			mu.Lock()
			defer mu.Unlock()
			n++
			if signaled {
				crashed++
			}
			switch {
			case j.strays && !strayed:
				t.Errorf("%s: PCP reads outside its mapping here, ours did not see it", name)
			case strayed:
				// PCP crashed or printed stray memory: ours names the fault
				if !bytes.Contains(got.Bytes(), []byte("\nBad file")) {
					t.Errorf("%s: ours names no fault:\n%s", name, got.String())
				}
				if !signaled {
					t.Logf("%s: PCP printed stray memory, ours names the fault", name)
				}
			case signaled:
				t.Errorf("%s: PCP's mmvdump crashed (%v), ours did not see why:\n%s", name, cmd.ProcessState, got.String())
			default:
				want := elapsed.ReplaceAllString(out.String(), "= T $1")
				have := elapsed.ReplaceAllString(got.String(), "= T $1")
				if want != have || errb.String() != gotErr.String() || code != pcpCode {
					t.Errorf("%s: PCP status %d stderr %q, ours status %d stderr %q\nPCP:\n%s\nours:\n%s", name, pcpCode, errb.String(), code, gotErr.String(), want, have)
					return
				}
				same++
			}
		}()
	}
	wg.Wait()
	t.Logf("%d damaged files: %d the same as PCP's, %d where PCP strays (%d crashed)", n, same, n-same, crashed)
}
