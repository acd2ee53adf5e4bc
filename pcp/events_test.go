package pcp

import (
	"encoding/binary"
	"testing"
	"time"
)

// eventArray builds an event array's data in host order: a record count,
// then per record a timestamp, flags, a parameter count and the given
// parameter bytes.
func eventArray(n int32, recs ...[]byte) []byte {
	b := binary.NativeEndian.AppendUint32(nil, uint32(n))
	for _, r := range recs {
		b = append(b, r...)
	}
	return b
}

func eventRecord(sec, usec int32, flags uint32, nparams int32, params ...byte) []byte {
	b := binary.NativeEndian.AppendUint32(nil, uint32(sec))
	b = binary.NativeEndian.AppendUint32(b, uint32(usec))
	b = binary.NativeEndian.AppendUint32(b, flags)
	b = binary.NativeEndian.AppendUint32(b, uint32(nparams))
	return append(b, params...)
}

// TestEventSummaryMissedCount: a missed record is re-read by every later
// record, as PCP does; the count must come out the same without looping
// once per claimed record.
func TestEventSummaryMissedCount(t *testing.T) {
	missed := eventRecord(10, 0, EventFlagMissed, 3)
	for _, tc := range []struct {
		n    int32
		want string
	}{
		{1, "[1 event record timestamp " + FormatStamp(time.Unix(10, 0), false) + "]"},
		{4, "[4 event records (9 missed) timestamps " + FormatStamp(time.Unix(10, 0), false) + "..." + FormatStamp(time.Unix(10, 0), false) + "]"},
		{1 << 30, ""},
	} {
		got := EventSummary(eventArray(tc.n, missed), false)
		if tc.want != "" && got != tc.want {
			t.Errorf("n=%d: %q, want %q", tc.n, got, tc.want)
		}
	}
}

func FuzzUnpackEvents(f *testing.F) {
	param := binary.NativeEndian.AppendUint32(nil, 0x0e800001)
	param = binary.NativeEndian.AppendUint32(param, uint32(1)<<24|8)
	param = binary.NativeEndian.AppendUint32(param, 42)
	f.Add(eventArray(1, eventRecord(1, 2, 0, 1, param...)), false)
	f.Add(eventArray(2, eventRecord(1, 2, 1, 1, param...), eventRecord(3, 4, 0, 0)), false)
	f.Add(eventArray(1<<30, eventRecord(1, 2, EventFlagMissed, 7)), false)
	f.Add(eventArray(1, append(eventRecord(1, 2, 0, 1), eventRecord(0, 0, 0, 0)...)), true)
	f.Fuzz(func(t *testing.T, data []byte, highres bool) {
		recs, err := UnpackEvents(data, highres)
		if err == nil && len(recs) > len(data) {
			t.Fatalf("%d records from %d bytes", len(recs), len(data))
		}
		_ = EventSummary(data, highres)
	})
}
