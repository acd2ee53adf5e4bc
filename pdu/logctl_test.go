package pdu

import (
	"context"
	"net"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
)

func TestLogRequestCaptured(t *testing.T) {
	for _, m := range decodeCaptured[LogRequest](t) {
		switch m.Request {
		case LogRequestNewVolume, LogRequestStatus, LogRequestSync, LogRequestQAOff, LogRequestQASleepy:
		default:
			t.Errorf("request %d is none of pmlc's", m.Request)
		}
	}
}

// TestLogControlCaptured checks the captured requests against the rules
// pmlc's sender enforces.
func TestLogControlCaptured(t *testing.T) {
	for _, m := range decodeCaptured[LogControl](t) {
		switch {
		case m.Control != LogMandatory && m.Control != LogAdvisory && m.Control != LogEnquire:
			t.Errorf("%+v: control", m)
		case m.State != LogOff && m.State != LogMaybe && m.State != LogOn:
			t.Errorf("%+v: state", m)
		case m.Delta < 0, m.Control == LogAdvisory && m.State == LogMaybe:
			t.Errorf("%+v: PCP refuses to send this", m)
		}
		for _, s := range m.Sets {
			if s.NumVal < 0 || int(s.NumVal) != len(s.Values) || s.ValFmt != pcp.ValInSitu {
				t.Errorf("%+v: set %+v", m, s)
			}
		}
	}
}

// TestLogStatusCaptured checks what pmlogger always reports: the time
// zone of pmcd's host and its own, no zoneinfo, times in order, and a
// current volume.
func TestLogStatusCaptured(t *testing.T) {
	for _, m := range decodeCaptured[LogStatus](t) {
		checkLoggerStatus(t, &m.LoggerStatus)
		if m.PMCDZoneinfo != "" || m.LoggerZoneinfo != "" {
			t.Errorf("%+v: pmlogger sends no zoneinfo", m)
		}
	}
}

func checkLoggerStatus(t *testing.T, s *LoggerStatus) {
	t.Helper()
	if s.PMCDHost == "" || s.PMCDFQDN == "" || s.PMCDTimezone == "" || s.LoggerTimezone == "" {
		t.Errorf("%+v: missing strings", s)
	}
	if s.Vol < 0 || s.Size < 0 || (s.State != LogStateNew && s.State != LogStateInit) {
		t.Errorf("%+v: volume, size or state", s)
	}
	if s.State != LogStateNew && (s.Last.Sub(s.Start) < 0 || s.Now.Sub(s.Last) < 0) {
		t.Errorf("%+v: times out of order", s)
	}
}

// TestLogStatusFromPMLogger asks a real pmlogger for its status once as a
// version 2 client and once as a version 3 client, checks that both
// answers re-encode to PCP's bytes and agree with each other and with what
// pmlc reports. PCP 6's own pmlc only speaks version 3, so this is where
// LOG_STATUS_V2 meets real PCP.
func TestLogStatusFromPMLogger(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	l := p.StartLogger(t, testbed.LoggerOptions{})

	// pmlc first: it does not retry when pmlogger is still busy with the
	// previous client, and the checks below do.
	res := p.RunInput([]byte("status\n"), "pmlc", "-h", "localhost", "-p", strconv.Itoa(l.Port))
	if res.Err != nil {
		t.Fatalf("pmlc: %v\n%s", res.Err, res.Stderr)
	}

	v2 := new(LogStatusV2)
	askLoggerStatus(t, l.Port, 2, v2)
	v3 := new(LogStatus)
	askLoggerStatus(t, l.Port, 3, v3)
	checkLoggerStatus(t, &v2.LoggerStatus)
	checkLoggerStatus(t, &v3.LoggerStatus)

	if v2.PMCDHost != v3.PMCDHost || v2.PMCDFQDN != v3.PMCDFQDN ||
		v2.PMCDTimezone != v3.PMCDTimezone || v2.LoggerTimezone != v3.LoggerTimezone || v2.Vol != v3.Vol {
		t.Errorf("version 2 says %+v\nversion 3 says %+v", v2.LoggerStatus, v3.LoggerStatus)
	}
	if v2.State == LogStateInit && v3.State == LogStateInit &&
		(v2.Start.Sec != v3.Start.Sec || v2.Start.Nsec != v3.Start.Nsec/1000*1000) {
		t.Errorf("start %+v in version 2, %+v in version 3", v2.Start, v3.Start)
	}

	facts := map[string]string{
		`PMCD host\s+(\S+)`:       v3.PMCDFQDN,
		`metrics from host (\S+)`: v3.PMCDHost,
		`log volume\s+(\d+)`:      strconv.Itoa(int(v3.Vol)),
	}
	for re, want := range facts {
		m := regexp.MustCompile(re).FindStringSubmatch(res.Stdout)
		if m == nil || m[1] != want {
			t.Errorf("pmlc status %q: got %v, want %q\n%s", re, m, want, res.Stdout)
		}
	}
}

// askLoggerStatus connects to pmlogger's control port as a client of the
// given protocol version, sends LOG_REQUEST status and decodes the answer
// into m, checking that it encodes back to the bytes pmlogger sent.
func askLoggerStatus(t *testing.T, port int, version uint8, m Message) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, r := dialLogger(ctx, t, port)
	defer conn.Close()
	w := NewWriter(conn)
	creds := &Creds{Creds: []Cred{VersionCred{Version: version}.Cred()}}
	if err := w.WriteMessage(ctx, creds, 0); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteMessage(ctx, &LogRequest{Request: LogRequestStatus}, 0); err != nil {
		t.Fatal(err)
	}
	b, err := r.ReadPDU(ctx)
	if err != nil {
		t.Fatalf("version %d status: %v", version, err)
	}
	if err := m.Decode(b); err != nil {
		t.Fatalf("version %d status %x: %v", version, b, err)
	}
	if got := m.Append(nil, 0); string(got) != string(b) {
		t.Errorf("version %d status re-encoded\n got %x\nwant %x", version, got, b)
	}
}

// dialLogger connects to pmlogger's control port and reads its greeting.
// pmlogger serves one client at a time and turns others away with an
// error in place of its greeting, which it may still do just after the
// previous client hung up, so that is retried until ctx ends.
func dialLogger(ctx context.Context, t *testing.T, port int) (net.Conn, *Reader) {
	t.Helper()
	// pmlogger serves one control client at a time: while it is still
	// finishing with the previous one it refuses with an error code, or
	// resets the connection outright. Both are worth another try.
	var last error
	for {
		conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", net.JoinHostPort("localhost", strconv.Itoa(port)))
		if err == nil {
			r := NewReader(conn, DefaultTimeout)
			var b []byte
			if b, err = r.ReadPDU(ctx); err == nil {
				var greeting Error
				if err := greeting.Decode(b); err != nil {
					t.Fatalf("pmlogger's greeting %x: %v", b, err)
				}
				if greeting.Code >= 0 {
					return conn, r
				}
				err = greeting.Err()
			}
			conn.Close()
		}
		last = err
		select {
		case <-ctx.Done():
			t.Fatalf("pmlogger keeps refusing: %v", last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestLogStatusLayouts checks what the captures cannot show: the padding
// of the string area for each remainder, absent strings, seconds beyond
// 32 bits in version 3, and version 2's cutting of long strings.
func TestLogStatusLayouts(t *testing.T) {
	for _, host := range []string{"a", "ab", "abc", "abcd"} {
		m := LogStatus{LoggerStatus{PMCDHost: host, Start: pcp.Timestamp{Sec: 1<<33 + 5, Nsec: 7}}}
		b := m.Append(nil, 0)
		if len(b)%4 != 0 || len(b) != logStatusFixedLen+align4(len(host)+1) {
			t.Errorf("%q: length %d", host, len(b))
		}
		if got := b[12:24]; string(got) != "\x00\x00\x00\x05\x00\x00\x00\x02\x00\x00\x00\x07" {
			t.Errorf("start encoded %x", got)
		}
		var back LogStatus
		if err := back.Decode(b); err != nil || back != m {
			t.Errorf("%q: decoded %+v, %v", host, back, err)
		}
	}
	long := strings.Repeat("h", 100)
	m := LogStatusV2{LoggerStatus{PMCDHost: long, PMCDTimezone: "UTC", PMCDZoneinfo: "dropped"}}
	b := m.Append(nil, 0)
	if len(b) != logStatusV2Len {
		t.Fatalf("length %d", len(b))
	}
	var back LogStatusV2
	if err := back.Decode(b); err != nil {
		t.Fatal(err)
	}
	want := LogStatusV2{LoggerStatus{PMCDHost: long[:logHostLenV2-1], PMCDTimezone: "UTC"}}
	if back != want {
		t.Errorf("decoded %+v, want %+v", back, want)
	}
}

func TestLogMalformed(t *testing.T) {
	ctl := (&LogControl{Control: LogMandatory, State: LogOn, Delta: 5000, Sets: []pcp.ValueSet{
		{PMID: sampleLongOne.PMID, NumVal: 2, Values: []pcp.Value{{Inst: 0}, {Inst: 2}}},
		{PMID: 7},
	}}).Append(nil, 0)
	req := (&LogRequest{Request: LogRequestStatus}).Append(nil, 0)
	st := (&LogStatus{LoggerStatus{PMCDHost: "vm", PMCDFQDN: "localhost:4", PMCDTimezone: "UTC", LoggerTimezone: "UTC"}}).Append(nil, 0)
	v2 := (&LogStatusV2{LoggerStatus{PMCDHost: "vm", PMCDTimezone: "UTC"}}).Append(nil, 0)
	// ctl: set count 24, first PMID 28, first count 32, values 36..52,
	// second PMID 52, count 56. st: lengths 64..88, strings 88.
	runMalformed(t, []malformed{
		{"control set count negative", patched(ctl, 24, 0xffffffff)},
		{"control set count huge", patched(ctl, 24, 0x20000000)},
		{"control set count lies high", patched(ctl, 24, 3)},
		{"control set count lies low", patched(ctl, 24, 1)},
		{"control value count huge", patched(ctl, 32, 0x7fffffff)},
		{"control value count lies high", patched(ctl, 32, 3)},
		{"control value count lies low", patched(ctl, 32, 1)},
		{"control no set count", resized(ctl, 24)},
		{"request short", resized(req, 12)},
		{"request long", resized(req, 20)},
		{"status string length negative", patched(st, 64, 0xffffffff)},
		{"status string length over 256", patched(st, 64, 257)},
		{"status string length past end", patched(st, 84, 200)},
		{"status string without NUL", patched(st, 64, 2)},
		{"status padding missing", resized(st, len(st)-2)},
		{"status no lengths", resized(st, 64)},
		{"v2 short", resized(v2, logStatusV2Len-1)},
		{"v2 long", resized(v2, logStatusV2Len+4)},
		{"v2 microseconds negative", patched(v2, 20, 0xffffffff)},
		{"v2 microseconds a second", patched(v2, 28, 1000000)},
	})
}
