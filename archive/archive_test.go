package archive

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

const qaDir = "/var/lib/pcp/testsuite/archives"

// testArchive writes a small archive: one metric (PMID 60.0.1, 32-bit,
// instance domain 60.1 with two instances) and n data records a second
// apart, a <mark> record after the third. It returns the base name.
func testArchive(t testing.TB, dir string, version, n int) string {
	t.Helper()
	base := filepath.Join(dir, "arch")
	start := pcp.Timestamp{Sec: 1700000000, Nsec: 250000000}
	label := func(vol int32) []byte {
		l := Label{Magic: Magic | uint32(version), PID: 99, Start: start, Vol: vol, Hostname: "testhost", Timezone: "EST-10"}
		return AppendLabel(nil, &l)
	}
	rec := func(typ int, body []byte) []byte {
		var b []byte
		b = binary.BigEndian.AppendUint32(b, uint32(len(body)+12))
		b = binary.BigEndian.AppendUint32(b, uint32(typ))
		b = append(b, body...)
		return binary.BigEndian.AppendUint32(b, uint32(len(body)+12))
	}
	stamp := func(ts pcp.Timestamp) []byte {
		b := make([]byte, 12)
		if version == Version3 {
			putTimestamp(b, ts)
			return b
		}
		binary.BigEndian.PutUint32(b, uint32(ts.Sec))
		binary.BigEndian.PutUint32(b[4:], uint32(ts.Nsec/1000))
		return b[:8]
	}
	pmid := pcp.NewPMID(60, 0, 1)
	indom := pcp.NewInDom(60, 1)
	var desc []byte
	for _, w := range []uint32{uint32(pmid), uint32(pcp.Type32), uint32(indom), uint32(pcp.SemCounter), 0, 1, 11} {
		desc = binary.BigEndian.AppendUint32(desc, w)
	}
	desc = append(desc, "test.metric"...)
	var in []byte
	in = append(in, stamp(start)...)
	for _, w := range []uint32{uint32(indom), 2, 1, 0, 0, 4} {
		in = binary.BigEndian.AppendUint32(in, w)
	}
	in = append(in, "one\x00zero\x00"...)
	inType := TypeInDom
	if version == Version2 {
		inType = TypeInDomV2
	}
	meta := append(label(VolMeta), rec(TypeDesc, desc)...)
	meta = append(meta, rec(inType, in)...)
	write := func(name string, b []byte) {
		if err := os.WriteFile(base+name, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".meta", meta)
	data := label(0)
	idx := label(VolIndex)
	for i := 0; i < n; i++ {
		var r pcp.Result
		r.Timestamp = pcp.Timestamp{Sec: start.Sec + int64(i), Nsec: start.Nsec}
		r.Sets = []pcp.ValueSet{{PMID: pmid, NumVal: 2, ValFmt: pcp.ValInSitu,
			Values: []pcp.Value{{Inst: 0, LVal: int32(i)}, {Inst: 1, LVal: int32(2 * i)}}}}
		if i == 3 {
			r.Sets = nil
		}
		body := pdu.AppendLogRecord(make([]byte, pdu.LogRecordPrefix), 0, &r, version == Version3)[pdu.LogRecordPrefix:]
		if i == 0 {
			e := make([]byte, 0, 32)
			e = append(e, stamp(r.Timestamp)...)
			e = binary.BigEndian.AppendUint32(e, 0)
			if version == Version3 {
				e = binary.BigEndian.AppendUint64(e, uint64(len(meta)))
				e = binary.BigEndian.AppendUint64(e, uint64(len(data)))
			} else {
				e = binary.BigEndian.AppendUint32(e, uint32(len(meta)))
				e = binary.BigEndian.AppendUint32(e, uint32(len(data)))
			}
			idx = append(idx, e...)
		}
		data = binary.BigEndian.AppendUint32(data, uint32(len(body)+8))
		data = append(data, body...)
		data = binary.BigEndian.AppendUint32(data, uint32(len(body)+8))
	}
	write(".0", data)
	write(".index", idx)
	return base
}

func readAll(t *testing.T, a *Archive, m Mode, from pcp.Timestamp) ([]pcp.Timestamp, error) {
	t.Helper()
	r := a.NewReader()
	r.SetMode(m, from)
	var res pcp.Result
	var out []pcp.Timestamp
	for {
		err := r.Fetch(&res)
		if err != nil {
			if errors.Is(err, pcp.ErrEOL) {
				return out, nil
			}
			return out, err
		}
		out = append(out, res.Timestamp)
	}
}

func TestReadBothVersions(t *testing.T) {
	for _, v := range []int{Version2, Version3} {
		base := testArchive(t, t.TempDir(), v, 6)
		a, err := Open(base, Options{})
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		fw, err := readAll(t, a, Forward, a.Label.Start)
		if err != nil || len(fw) != 6 {
			t.Fatalf("v%d forward: %d records, %v", v, len(fw), err)
		}
		end, err := a.End()
		if err != nil || end != fw[5] {
			t.Errorf("v%d end: %v %v, want %v", v, end, err, fw[5])
		}
		bw, err := readAll(t, a, Backward, end)
		if err != nil || len(bw) != 6 {
			t.Fatalf("v%d backward: %d records, %v", v, len(bw), err)
		}
		for i := range fw {
			if fw[i] != bw[len(bw)-1-i] {
				t.Errorf("v%d: record %d forward %v, backward %v", v, i, fw[i], bw[len(bw)-1-i])
			}
		}
		mid := pcp.Timestamp{Sec: a.Label.Start.Sec + 2, Nsec: 0}
		from, _ := readAll(t, a, Forward, mid)
		if len(from) != 4 || from[0] != fw[2] {
			t.Errorf("v%d from %v: %v", v, mid, from)
		}
		name, err := a.Meta.NameInDom(pcp.NewInDom(60, 1), 1, end)
		if err != nil || name != "one" {
			t.Errorf("v%d instance 1: %q %v", v, name, err)
		}
		if names, _ := a.Meta.Names(pcp.NewPMID(60, 0, 1)); !reflect.DeepEqual(names, []string{"test.metric"}) {
			t.Errorf("v%d names: %v", v, names)
		}
	}
}

// TestDamage cuts a volume at every byte and checks that the records
// before the cut are read and the cut one is reported as PCP reports it.
func TestDamage(t *testing.T) {
	dir := t.TempDir()
	base := testArchive(t, dir, Version3, 6)
	a, err := Open(base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := readAll(t, a, Forward, a.Label.Start)
	data, _ := os.ReadFile(base + ".0")
	hdr := labelSize(Version3)
	for cut := hdr + 1; cut < len(data); cut++ {
		if err := os.WriteFile(base+".0", data[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		a, err := Open(base, Options{})
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		got, err := readAll(t, a, Forward, a.Label.Start)
		if len(got) > len(whole) || !slices.Equal(got, whole[:len(got)]) {
			t.Fatalf("cut at %d: records %v, want a prefix of %v", cut, got, whole)
		}
		if err == nil {
			// A cut inside a record's length word reads as the end.
			continue
		}
		var ae *Error
		if !errors.Is(err, pcp.ErrLogRec) || !errors.As(err, &ae) || ae.Offset < int64(hdr) || ae.Offset >= int64(cut) {
			t.Fatalf("cut at %d: %v", cut, err)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	base := testArchive(t, dir, Version2, 3)
	if _, err := Open(filepath.Join(dir, "nothing"), Options{}); Code(err) != pcp.Error(-2) {
		t.Errorf("missing archive: %v", err)
	}
	if _, err := Open(base+".meta", Options{}); err != nil {
		t.Errorf("by a file's name: %v", err)
	}
	os.Rename(base+".meta", base+".meta.hidden")
	if _, err := Open(base, Options{}); !errors.Is(err, pcp.ErrLogFile) {
		t.Errorf("no metadata: %v", err)
	}
	os.Rename(base+".meta.hidden", base+".meta")
	data, _ := os.ReadFile(base + ".0")
	os.WriteFile(base+".0", data[:labelSize(Version2)], 0o644)
	if _, err := Open(base, Options{}); !errors.Is(err, pcp.ErrNoData) {
		t.Errorf("empty volume: %v", err)
	}
	data[5] ^= 0xff
	os.WriteFile(base+".0", data, 0o644)
	if _, err := Open(base, Options{}); !errors.Is(err, pcp.ErrLabel) {
		t.Errorf("bad magic: %v", err)
	}
}

// TestCompressed reads the QA suite's multi-volume archive plain and
// compressed with xz, which must give the same records.
func TestCompressed(t *testing.T) {
	if _, err := os.Stat(qaDir + "/multi-xz"); err != nil {
		t.Skip("PCP's QA archives are not installed")
	}
	for _, n := range []string{"20150508.11.44", "20150508.11.57"} {
		p, err := Open(qaDir+"/multi/"+n, Options{})
		if err != nil {
			t.Fatal(err)
		}
		x, err := Open(qaDir+"/multi-xz/"+n, Options{})
		if err != nil {
			t.Fatal(err)
		}
		a, errA := readAll(t, p, Forward, p.Label.Start)
		b, errB := readAll(t, x, Forward, x.Label.Start)
		if errA != nil || errB != nil || !reflect.DeepEqual(a, b) || len(a) == 0 {
			t.Errorf("%s: plain %d records (%v), xz %d (%v)", n, len(a), errA, len(b), errB)
		}
	}
}

func TestDecodeAllocs(t *testing.T) {
	base := testArchive(t, t.TempDir(), Version3, 6)
	a, err := Open(base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := a.NewReader()
	var res pcp.Result
	for r.Fetch(&res) == nil {
	}
	r.SetMode(Forward, a.Label.Start)
	r.Fetch(&res)
	allocs := testing.AllocsPerRun(20, func() {
		r.SetMode(Forward, a.Label.Start)
		for r.Fetch(&res) == nil {
		}
	})
	// Positioning opens nothing new: the records decode into res.
	if allocs > 10 {
		t.Errorf("%.0f allocations to read the archive again", allocs)
	}
}
