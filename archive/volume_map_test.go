package archive

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// transcript reads a's records forwards, whole or selecting a third of
// the metrics by PMID (as interpolation reads), and writes each one, or
// the error that ends the reading with its place. It appends with
// strconv, not fmt: formatting was most of the time of the tests that
// compare transcripts, some eight times the reading's under -race.
func transcript(t *testing.T, a *Archive, selecting bool) string {
	t.Helper()
	rd := a.NewReader()
	if selecting {
		var ids []pcp.PMID
		i := 0
		a.Meta.EachDesc(func(d pcp.Desc) {
			if i%3 == 0 {
				ids = append(ids, d.PMID)
			}
			i++
		})
		rd.SelectPMIDs(ids)
	}
	var b []byte
	var r pcp.Result
	var last pcp.Result
	for {
		err := rd.Fetch(&r)
		if err != nil {
			b = fmt.Appendf(b, "error %v\n", err)
			break
		}
		vol, off := rd.Position()
		b = strconv.AppendInt(b, r.Timestamp.Sec, 10)
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(r.Timestamp.Nsec), 10)
		b = append(b, " vol "...)
		b = strconv.AppendInt(b, int64(vol), 10)
		b = append(b, " off "...)
		b = strconv.AppendInt(b, off, 10)
		b = append(b, " mark "...)
		b = strconv.AppendBool(b, rd.Mark())
		b = append(b, '\n')
		for _, s := range r.Sets {
			b = append(b, ' ')
			b = strconv.AppendUint(b, uint64(s.PMID), 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(s.NumVal), 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(s.ValFmt), 10)
			for _, v := range s.Values {
				b = append(b, ' ')
				b = strconv.AppendInt(b, int64(v.Inst), 10)
				b = append(b, ':')
				b = strconv.AppendInt(b, int64(v.LVal), 10)
				b = append(b, ':')
				b = hex.AppendEncode(b, v.Block.Data)
			}
			b = append(b, '\n')
		}
		last = r
		r = pcp.Result{}
	}
	rd.Close()
	// the reader's mapping is gone: a value still pointing into it
	// would fault here
	for _, s := range last.Sets {
		for _, v := range s.Values {
			b = hex.AppendEncode(b, v.Block.Data)
		}
	}
	return string(b)
}

// TestMappedReadsAsWindow: reading through a mapping gives every record,
// and the damage that ends a reading at the same place with the same
// error, as reading through the window, for QA archives and the QA
// suite's damaged ones, read whole and selecting; the values read keep
// nothing of the mapping once the reader is closed.
func TestMappedReadsAsWindow(t *testing.T) {
	if _, err := os.Stat(qaDir + "/20041125.0"); err != nil {
		t.Skip("PCP's QA archives are not installed")
	}
	names := []string{"20041125", "20180127.08.40", "dm-io", "20180102", "bug-1044", "naslog", "20180415.09.16", "multi/20150508.11.44"}
	bad, _ := filepath.Glob(qaBad + "/*.0")
	for _, b := range bad {
		names = append(names, "../badarchives/"+strings.TrimSuffix(filepath.Base(b), ".0"))
	}
	defer func(n int) { mapMin = n }(mapMin)
	compared := 0
	for _, name := range names {
		a, err := Open(qaDir+"/"+name, Options{})
		if err != nil {
			continue
		}
		for _, selecting := range []bool{false, true} {
			mapMin = 1 << 62
			window := transcript(t, a, selecting)
			mapMin = 0
			mapped := transcript(t, a, selecting)
			if window != mapped {
				t.Errorf("%s (selecting %v): read through a mapping differs\nwindow:\n%.2000s\nmapped:\n%.2000s", name, selecting, window, mapped)
			}
			compared++
		}
		a.Close()
	}
	if compared < 20 {
		t.Fatalf("%d readings compared", compared)
	}
	t.Logf("%d readings compared", compared)
}

// TestMappedVolumeCut: a volume cut short while a reader reads it
// through a mapping gives a damaged-record error where the reading meets
// the cut (the pages past the file's new end fault), not a crash, after
// the records before it; a reader opened after the cut reads up to it.
func TestMappedVolumeCut(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("volumes are mapped on Linux only")
	}
	if _, err := os.Stat(qaDir + "/20180127.08.40.0"); err != nil {
		t.Skip("PCP's QA archives are not installed")
	}
	dir := t.TempDir()
	for _, ext := range []string{".0", ".meta", ".index"} {
		src, err := os.Open(qaDir + "/20180127.08.40" + ext)
		if err != nil {
			t.Fatal(err)
		}
		dst, err := os.Create(filepath.Join(dir, "a"+ext))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(dst, src); err != nil {
			t.Fatal(err)
		}
		src.Close()
		dst.Close()
	}
	defer func(n int) { mapMin = n }(mapMin)
	mapMin = 0
	a, err := Open(filepath.Join(dir, "a"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rd := a.NewReader()
	defer rd.Close()
	var r pcp.Result
	if err := rd.Fetch(&r); err != nil {
		t.Fatal(err)
	}
	if rd.cur == nil || rd.cur.m == nil {
		t.Fatal("the volume is not mapped")
	}
	vol := filepath.Join(dir, "a.0")
	st, err := os.Stat(vol)
	if err != nil {
		t.Fatal(err)
	}
	cut := st.Size() / 2
	if err := os.Truncate(vol, cut); err != nil {
		t.Fatal(err)
	}
	n := 1
	for {
		err = rd.Fetch(&r)
		if err != nil {
			break
		}
		n++
	}
	var ae *Error
	if !errors.Is(err, pcp.ErrLogRec) || !errors.As(err, &ae) || ae.Offset > cut {
		t.Fatalf("after %d records: %v, want a damaged record at or before %d", n, err, cut)
	}
	t.Logf("%d records, then %v", n, err)

	after := a.NewReader()
	defer after.Close()
	m := 0
	for after.Fetch(&r) == nil {
		m++
	}
	if m != n-1 && m != n {
		t.Errorf("a reader opened after the cut read %d records, the one cut under %d", m, n)
	}
}

// FuzzMappedVolume spoils a data volume (a byte changed, or the file cut
// short) and reads it forwards, whole and selecting, through the window
// and through a mapping: the records, places and errors are the same.
func FuzzMappedVolume(f *testing.F) {
	dir := f.TempDir()
	base := testArchive(f, dir, Version3, 12)
	vol, err := os.ReadFile(base + ".0")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint32(0), uint8(0), false)
	f.Add(uint32(len(vol)-3), uint8(0), true)
	f.Add(uint32(len(vol)/2), uint8(0x80), false)
	f.Add(uint32(len(vol)/3), uint8(1), true)
	defer func(n int) { mapMin = n }(mapMin)
	f.Fuzz(func(t *testing.T, off uint32, x uint8, cut bool) {
		b := append([]byte(nil), vol...)
		at := int(off) % len(b)
		if cut {
			b = b[:at]
		} else {
			b[at] ^= x
		}
		d := t.TempDir()
		for _, ext := range []string{".meta", ".index"} {
			m, err := os.ReadFile(base + ext)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, "a"+ext), m, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(d, "a.0"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		a, err := Open(filepath.Join(d, "a"), Options{})
		if err != nil {
			return
		}
		defer a.Close()
		for _, selecting := range []bool{false, true} {
			mapMin = 1 << 62
			window := transcript(t, a, selecting)
			mapMin = 0
			mapped := transcript(t, a, selecting)
			if window != mapped {
				t.Fatalf("selecting %v: read through a mapping differs\nwindow:\n%s\nmapped:\n%s", selecting, window, mapped)
			}
		}
	})
}
