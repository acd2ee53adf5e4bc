package pmda

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
)

// TestEventArrayAgainstPCP builds the same event arrays as
// testdata/eventarray.c does with libpcp_pmda's pmdaEvent* functions
// (legacy and high resolution: empty, a point record, every parameter
// type, a missed record, records and missed records mixed, and the two
// refusals) and compares the packed bytes and error codes with the
// output of that program in testdata/eventarray.golden. UPDATE_GOLDEN=1
// compiles and runs the program again (it needs libpcp-pmda3-dev).
func TestEventArrayAgainstPCP(t *testing.T) {
	if hostOrder.Uint16([]byte{1, 0}) != 1 {
		t.Skip("the golden arrays are little-endian")
	}
	golden := filepath.Join("testdata", "eventarray.golden")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		bin := filepath.Join(t.TempDir(), "eventarray")
		pcptest.Compile(t, pcptest.C{
			Src: filepath.Join("testdata", "eventarray.c"), Out: bin,
			Libs: pcptest.PMDALibs, Headers: pcptest.PMDAHeaders,
		})
		out, err := exec.Command(bin).Output()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(golden)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, _ := strings.Cut(sc.Text(), " ")
		want[name] = rest
	}
	got := buildEventArrays()
	if len(got) != len(want) {
		t.Errorf("%d cases, golden has %d", len(got), len(want))
	}
	for name, g := range got {
		if want[name] != g {
			t.Errorf("%s:\n got  %s\n want %s", name, g, want[name])
		}
	}
}

// buildEventArrays makes the arrays of testdata/eventarray.c, each as
// "type length hex" (length counting the value block's header) or
// "error code".
func buildEventArrays() map[string]string {
	out := map[string]string{}
	pmid := pcp.NewPMID(29, 0, 77)
	stamp := func(sec, usec int64) time.Time { return time.Unix(sec, usec*1000) }
	for _, hr := range []bool{false, true} {
		pre := "legacy"
		a := NewEventArray()
		if hr {
			pre, a = "highres", NewHighResEventArray()
		}
		dump := func(name string) {
			v := a.Value()
			out[pre+"-"+name] = fmt.Sprintf("%d %d %s", v.Type, len(v.Data)+4, hex.EncodeToString(v.Data))
		}
		fail := func(name string, err error) {
			var code pcp.Error
			errors.As(err, &code)
			out[pre+"-"+name] = fmt.Sprintf("error %d", code)
		}
		a.Reset()
		dump("empty")
		a.Reset()
		a.AddRecord(stamp(1000, 250), pcp.EventFlagPoint)
		dump("point")
		a.Reset()
		a.AddRecord(stamp(1700000000, 999999), pcp.EventFlagStart|pcp.EventFlagID)
		for _, p := range []struct {
			t pcp.Type
			a pcp.Atom
		}{
			{pcp.Type32, pcp.Atom{L: -5}},
			{pcp.TypeU32, pcp.Atom{UL: 7}},
			{pcp.Type64, pcp.Atom{LL: -1234567890123}},
			{pcp.TypeU64, pcp.Atom{ULL: 1234567890123}},
			{pcp.TypeFloat, pcp.Atom{F: 1.5}},
			{pcp.TypeDouble, pcp.Atom{D: -2.25}},
			{pcp.TypeString, pcp.Atom{CP: "hello"}},
			{pcp.TypeString, pcp.Atom{CP: ""}},
			{pcp.TypeAggregate, pcp.Atom{VBP: &pcp.ValueBlock{Type: pcp.TypeAggregate, Data: []byte{1, 2, 3}}}},
		} {
			a.AddParam(pmid, p.t, &p.a)
		}
		dump("params")
		a.Reset()
		a.AddMissedRecord(stamp(5, 6), 42)
		dump("missed")
		a.Reset()
		a.AddRecord(stamp(10, 1), pcp.EventFlagEnd)
		a.AddParam(pmid, pcp.Type32, &pcp.Atom{L: 3})
		a.AddMissedRecord(stamp(11, 2), 3)
		a.AddRecord(stamp(12, 3), 0)
		a.AddParam(pmid, pcp.TypeString, &pcp.Atom{CP: "abcd"})
		dump("mixed")
		a.Reset()
		fail("flag-missed", a.AddRecord(stamp(1, 0), pcp.EventFlagMissed))
		a.Reset()
		a.AddRecord(stamp(1, 0), 0)
		fail("bad-type", a.AddParam(pmid, pcp.TypeEvent, &pcp.Atom{}))
	}
	return out
}
