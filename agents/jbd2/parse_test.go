package jbd2

import (
	"strings"
	"testing"
)

// TestParseInfo reads info texts as PCP's agent reads them: which make a
// journal, and the fields they leave.
func TestParseInfo(t *testing.T) {
	const averages = "average: \n" +
		"  1ms waiting for transaction\n  3ms request delay\n  3920ms running transaction\n" +
		"  2ms transaction was being locked\n  5ms flushing data (in ordered mode)\n" +
		"  28ms logging transaction\n  21873us average transaction commit time\n" +
		"  69 handles per transaction\n  6 blocks per transaction\n  8 logged blocks per transaction\n"
	full := journal{waiting: 1, requestDelay: 3, running: 3920, locked: 2, flushing: 5, logging: 28,
		commitTime: 21873, handles: 69, blocks: 6, blocksLogged: 8}
	with := func(j journal, f func(*journal)) journal { f(&j); return j }
	tests := []struct {
		name string
		text string
		ok   bool
		want journal
	}{
		{"v3", "5873 transactions (20417 requested), each up to 8192 blocks\n" + averages, true,
			with(full, func(j *journal) { j.version, j.tid, j.requested, j.maxBuffers = 3, 5873, 20417, 8192 })},
		{"v2", "24 transaction, each up to 2048 blocks\n" + averages, true,
			with(full, func(j *journal) { j.version, j.tid, j.maxBuffers = 2, 24, 2048 })},
		{"empty", "", false, journal{}},
		// scanf stores the numbers it converts before a mismatch:
		// every averages line sets the transaction count
		{"no header", "junk\n" + averages, false, journal{tid: 8}},
		{"no averages line", "1 transactions (2 requested), each up to 3 blocks\n 5ms waiting for transaction\n", false,
			journal{version: 3, tid: 1, requested: 2, maxBuffers: 3}},
		{"averages cut short", "1 transactions (2 requested), each up to 3 blocks\naverage: \n 5ms waiting for transaction\n 7ms run", true,
			journal{version: 3, tid: 1, requested: 2, maxBuffers: 3, waiting: 5}},
		{"last line without newline", "1 transaction, each up to 3 blocks\naverage:\n 5ms waiting for transaction", true,
			journal{version: 2, tid: 1, maxBuffers: 3}},
		// scanf's white space matches none or any; what follows the
		// last number is not looked at
		{"spacing", "  7   transactions(8   requested),each up to 9 widgets\naverage:x\n", true,
			journal{version: 3, tid: 7, requested: 8, maxBuffers: 9}},
		{"partial v3 then v2", "4 transactions (5 requested)\n6 transaction, each up to 7 blocks\naverage: \n", true,
			journal{version: 2, tid: 6, requested: 5, maxBuffers: 7}},
		{"numbers at the edges", "18446744073709551616 transactions (-3 requested), each up to 4294967301 blocks\naverage: \n" +
			"-7ms waiting for transaction\n+4ms request delay\n99999999999999999999ms running transaction\n", true,
			journal{version: 3, tid: 1<<64 - 1, requested: 1<<64 - 3, maxBuffers: 5, waiting: 1<<64 - 7, requestDelay: 4, running: 1<<64 - 1}},
		{"exact texts only", "1 transaction, each up to 1 blocks\naverage: \n 5ms waiting for transaction \n5 ms running transaction\n" +
			" 6ms running transaction\r\n ms logging transaction\n 9 handles per transaction\n", true,
			journal{version: 2, tid: 1, maxBuffers: 1, handles: 9}},
		{"NUL ends a line", "1 transaction, each up to 1 blocks\naverage: \n 5ms waiting\x00 for transaction\n 6 blocks per transaction\x00\n", true,
			journal{version: 2, tid: 1, maxBuffers: 1}},
		{"header in a later line", "\njunk\n2 transaction, each up to 3 blocks\naverage: \n", true,
			journal{version: 2, tid: 2, maxBuffers: 3}},
		{"second header ignored", "2 transaction, each up to 3 blocks\n9 transaction, each up to 9 blocks\naverage: \n", true,
			journal{version: 2, tid: 2, maxBuffers: 3}},
		// fgets's buffer: a long line is read in pieces of 4095 bytes,
		// and a piece that ends as a field's line counts
		{"long line's last piece", "2 transaction, each up to 3 blocks\naverage: \n" +
			strings.Repeat("x", lineMax) + "4ms logging transaction\n" +
			strings.Repeat("y", lineMax-1) + "\n", true,
			journal{version: 2, tid: 2, maxBuffers: 3, logging: 4}},
		{"long line's split field", "2 transaction, each up to 3 blocks\naverage: \n" +
			strings.Repeat("x", lineMax-3) + "4ms logging transaction\n", true,
			journal{version: 2, tid: 2, maxBuffers: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var j journal
			if ok := parseInfo(&j, []byte(tt.text)); ok != tt.ok {
				t.Errorf("parseInfo = %v, want %v", ok, tt.ok)
			}
			if j != tt.want {
				t.Errorf("journal\n got %+v\nwant %+v", j, tt.want)
			}
		})
	}
}

// TestParseKeeps checks that a field a later text lacks keeps its value,
// as PCP's journal record keeps it.
func TestParseKeeps(t *testing.T) {
	var j journal
	parseInfo(&j, []byte("1 transactions (2 requested), each up to 3 blocks\naverage: \n 5ms request delay\n 6 handles per transaction\n"))
	parseInfo(&j, []byte("4 transaction, each up to 5 blocks\naverage: \n 7 handles per transaction\n"))
	want := journal{version: 2, tid: 4, requested: 2, maxBuffers: 5, requestDelay: 5, handles: 7}
	if j != want {
		t.Errorf("journal\n got %+v\nwant %+v", j, want)
	}
}

// TestParseInfoAllocs: the agent parses every journal's file at every
// fetch, reading its numbers from the file's bytes without copies.
func TestParseInfoAllocs(t *testing.T) {
	text := []byte("5873 transactions (20417 requested), each up to 8192 blocks\naverage: \n" +
		"  1ms waiting for transaction\n  -3ms request delay\n  18446744073709551616us average transaction commit time\n" +
		"  69 handles per transaction\n")
	var j journal
	if n := testing.AllocsPerRun(100, func() { parseInfo(&j, text) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
	if j.tid != 5873 || j.requestDelay != 1<<64-3 || j.commitTime != 1<<64-1 || j.handles != 69 {
		t.Errorf("parsed %+v", j)
	}
}
