package pdu

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// goldenPDU is one PDU of a golden capture of real PCP traffic.
type goldenPDU struct {
	file      string
	line      int
	connector bool // sent by the connecting side ("> "), else by the accepting side ("< ")
	b         []byte
	h         Header
	// toPMCD and toAgent say whose connection this is: a client's to
	// pmcd, or pmcd's to an agent (else pmlc's to pmlogger, say).
	toPMCD, toAgent bool
}

func (c goldenPDU) where() string { return c.file + ":" + strconv.Itoa(c.line) }

// goldenFile is one file of pdu/testdata/captures: one connection's PDUs in
// the order they were sent.
type goldenFile struct {
	name string
	// connector and acceptor name the two sides, from the file's
	// "# connection: A -> B (...)" comment: "pminfo" and "pmcd", "pmcd"
	// and "pmdasample", "pmlc" and "pmlogger".
	connector, acceptor string
	pdus                []goldenPDU
}

// toPMCD reports a client's connection to pmcd.
func (f goldenFile) toPMCD() bool { return f.acceptor == "pmcd" }

// toAgent reports pmcd's connection to an agent.
func (f goldenFile) toAgent() bool {
	return f.connector == "pmcd" && strings.HasPrefix(f.acceptor, "pmda")
}

var (
	goldenOnce  sync.Once
	goldenFiles []goldenFile
	goldenErr   error
)

// loadGolden reads every pdu/testdata/captures/*.pdus. Having none fails
// the test: compatibility is judged on those bytes.
func loadGolden(t testing.TB) []goldenFile {
	t.Helper()
	goldenOnce.Do(func() {
		dir := "testdata/captures"
		if d := os.Getenv("GOPCP_PDU_CAPTURES"); d != "" {
			dir = d // to try fresh captures before committing them
		}
		goldenFiles, goldenErr = readGoldenDir(dir)
	})
	if goldenErr != nil {
		t.Fatal(goldenErr)
	}
	if len(goldenFiles) == 0 {
		t.Fatal("no golden captures in testdata/captures (scripts/capture-golden.sh makes them)")
	}
	return goldenFiles
}

func readGoldenDir(dir string) ([]goldenFile, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.pdus"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []goldenFile
	for _, f := range files {
		c, err := readGoldenFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func readGoldenFile(path string) (goldenFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return goldenFile{}, err
	}
	defer f.Close()
	c := goldenFile{name: filepath.Base(path)}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if conn, ok := strings.CutPrefix(line, "# connection:"); ok {
			f := strings.Fields(conn)
			if len(f) >= 3 && f[1] == "->" {
				c.connector, c.acceptor = f[0], f[2]
			}
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(line) < 2 || (line[0] != '>' && line[0] != '<') {
			return c, &goldenError{path, n, "line is neither a comment nor a PDU"}
		}
		b, err := hex.DecodeString(strings.TrimSpace(line[1:]))
		if err != nil {
			return c, &goldenError{path, n, err.Error()}
		}
		h, err := ParseHeader(b)
		if err != nil || int(h.Len) != len(b) {
			return c, &goldenError{path, n, "not one whole PDU"}
		}
		c.pdus = append(c.pdus, goldenPDU{file: c.name, line: n, connector: line[0] == '>', b: b, h: h,
			toPMCD: c.toPMCD(), toAgent: c.toAgent()})
	}
	return c, sc.Err()
}

type goldenError struct {
	path string
	line int
	msg  string
}

func (e *goldenError) Error() string { return e.path + ":" + strconv.Itoa(e.line) + ": " + e.msg }

// goldenOfType returns every captured PDU of type t.
func goldenOfType(t testing.TB, typ Type) []goldenPDU {
	var out []goldenPDU
	for _, c := range loadGolden(t) {
		for _, p := range c.pdus {
			if p.h.Type == typ {
				out = append(out, p)
			}
		}
	}
	return out
}

// roundTrip decodes p through the dispatcher and encodes it again with the
// captured sender, reporting how the bytes differ.
func goldenRoundTrip(p goldenPDU) (ok bool, msg string) {
	m, err := Decode(p.b)
	if err != nil {
		return false, "decode: " + err.Error()
	}
	got := m.Append(nil, p.h.From)
	if bytes.Equal(got, p.b) {
		return true, ""
	}
	i := 0
	for i < len(got) && i < len(p.b) && got[i] == p.b[i] {
		i++
	}
	return false, "re-encoded " + strconv.Itoa(len(got)) + " bytes, captured " + strconv.Itoa(len(p.b)) +
		"; first difference at byte " + strconv.Itoa(i) + "\n got  " + goldenHexAround(got, i) + "\n want " + goldenHexAround(p.b, i)
}

func goldenHexAround(b []byte, i int) string {
	lo, hi := max(0, i-8), min(len(b), i+24)
	return hex.EncodeToString(b[lo:hi])
}

// TestCapturesRoundTrip decodes every captured PDU and re-encodes it: the
// bytes must be PCP's exactly. Types no one has registered are listed per
// file and skipped.
func TestCapturesRoundTrip(t *testing.T) {
	for _, c := range loadGolden(t) {
		t.Run(c.name, func(t *testing.T) {
			skipped := map[Type]int{}
			for _, p := range c.pdus {
				if newMessage(p.h.Type) == nil {
					skipped[p.h.Type]++
					continue
				}
				if ok, msg := goldenRoundTrip(p); !ok {
					t.Errorf("%s: %v PDU: %s", p.where(), p.h.Type, msg)
				}
			}
			for typ, n := range skipped {
				t.Logf("skipped %d %v PDU(s): type not registered", n, typ)
			}
		})
	}
}

// goldenRequiredTypes are the PDU types PCP 6.0.3 exchanges, each of which the
// captures must hold. CONTROL_REQ is never sent by PCP 6, and pmlogger sends
// LOG_STATUS_V2 only to a pre-PCP-6 pmlc.
func goldenRequiredTypes() []Type {
	var out []Type
	for _, typ := range allTypes {
		if typ != TypeControlReq && typ != TypeLogStatusV2 {
			out = append(out, typ)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// TestCapturesCoverEveryType demands that every PDU type PCP 6 exchanges
// appears in some capture and round-trips there. Until every type has a
// decoder it lists the missing decoders and skips.
func TestCapturesCoverEveryType(t *testing.T) {
	var unregistered []string
	for _, typ := range goldenRequiredTypes() {
		if newMessage(typ) == nil {
			unregistered = append(unregistered, typ.String())
		}
	}
	seen := map[Type]int{}
	bad := map[Type]int{}
	for _, c := range loadGolden(t) {
		for _, p := range c.pdus {
			seen[p.h.Type]++
			if newMessage(p.h.Type) != nil {
				if ok, _ := goldenRoundTrip(p); !ok {
					bad[p.h.Type]++
				}
			}
		}
	}
	var absent []string
	for _, typ := range goldenRequiredTypes() {
		switch {
		case seen[typ] == 0:
			absent = append(absent, typ.String())
		case bad[typ] > 0:
			t.Errorf("%v: %d of %d captured PDUs do not round-trip", typ, bad[typ], seen[typ])
		}
	}
	if len(absent) > 0 {
		t.Errorf("no capture holds a PDU of type %s", strings.Join(absent, ", "))
	}
	if len(unregistered) > 0 {
		t.Skipf("no decoder yet for %s", strings.Join(unregistered, ", "))
	}
}

// goldenSeeds returns up to n captured PDUs of type typ as fuzz seeds, or
// none if the captures cannot be read.
func goldenSeeds(typ Type, n int) [][]byte {
	files, _ := readGoldenDir("testdata/captures")
	var out [][]byte
	for _, f := range files {
		for _, p := range f.pdus {
			if p.h.Type == typ && len(out) < n {
				out = append(out, p.b)
			}
		}
	}
	return out
}

// fuzzCodec fuzzes M's decoder: a failure must be an error wrapping
// pcp.ErrIPC, never a panic; what decodes must encode to bytes that decode
// again and encode the same; and decoding into a message that already
// holds a decoded PDU must give what a fresh message gives.
func fuzzCodec[M any, P interface {
	*M
	Message
}](f *testing.F, typ Type, extra ...[]byte) {
	seeds := append(goldenSeeds(typ, 16), extra...)
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fresh := P(new(M))
		err := fresh.Decode(b)
		reused := P(new(M))
		if len(seeds) > 0 {
			reused.Decode(seeds[0])
		}
		errReused := reused.Decode(b)
		if (err == nil) != (errReused == nil) {
			t.Fatalf("fresh decode: %v; decode into a used message: %v", err, errReused)
		}
		if err != nil {
			if !errors.Is(err, pcp.ErrIPC) {
				t.Fatalf("error %v does not wrap pcp.ErrIPC", err)
			}
			return
		}
		from := int32(binary.BigEndian.Uint32(b[8:]))
		enc := fresh.Append(nil, from)
		if got := reused.Append(nil, from); !bytes.Equal(got, enc) {
			t.Fatalf("used message encodes\n%x\nfresh one\n%x", got, enc)
		}
		again := P(new(M))
		if err := again.Decode(enc); err != nil {
			t.Fatalf("decoding own encoding %x: %v", enc, err)
		}
		if enc2 := again.Append(nil, from); !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding is not stable:\n%x\n%x", enc, enc2)
		}
	})
}

// mustPDU encodes m, for building test input.
func mustPDU(m Message, from int32) []byte { return m.Append(nil, from) }

// withLen returns a copy of pdu with its header length set to n.
func withLen(pdu []byte, n int) []byte {
	b := bytes.Clone(pdu)
	binary.BigEndian.PutUint32(b, uint32(n))
	return b
}

// grown returns pdu with extra zero bytes and its header length fixed to
// match: the layout is wrong but the framing right.
func grown(pdu []byte, extra int) []byte {
	b := append(bytes.Clone(pdu), make([]byte, extra)...)
	binary.BigEndian.PutUint32(b, uint32(len(b)))
	return b
}

// shrunk returns pdu cut by n bytes with its header length fixed to match.
func shrunk(pdu []byte, n int) []byte {
	b := bytes.Clone(pdu[:len(pdu)-n])
	binary.BigEndian.PutUint32(b, uint32(len(b)))
	return b
}

// expectIPC checks that decoding each bad PDU into m fails with pcp.ErrIPC.
func expectIPC(t *testing.T, m Message, bad map[string][]byte) {
	t.Helper()
	for name, b := range bad {
		err := m.Decode(b)
		if !errors.Is(err, pcp.ErrIPC) {
			t.Errorf("%s: Decode(%x) = %v, want pcp.ErrIPC", name, b, err)
		}
	}
}
