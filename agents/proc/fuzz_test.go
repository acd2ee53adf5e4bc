package proc

import (
	"testing"
)

// Fuzz targets for every parser of a per-process file: none may panic,
// loop without end or keep more than it was given.

func FuzzStat(f *testing.F) {
	f.Add([]byte("1 (init) S 0 1 1 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 9 10 11 12 13 14 15 16 17 0 0 0 0 0 0 0 17 1 0 0 0 0 0 0\n"))
	f.Add([]byte("1 (a) b) R"))
	f.Add([]byte("1 ("))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, b []byte) {
		var d statData
		if parseStat(&d, b) && len(d.cmd) > len(b) {
			t.Fatal("cmd longer than the file")
		}
	})
}

func FuzzStatus(f *testing.F) {
	f.Add([]byte("Name:\tbash\nUid:\t1\t2\t3\t4\nGid:\t5\t6\t7\t8\nNSpid:\t1 2\nCpus_allowed_list:\t0-1\nVmRSS:\t 100 kB\n"))
	f.Add([]byte("Uid:\nNStgid:"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var d statusData
		var scratch []byte
		parseStatus(&d, b, &scratch)
		for _, v := range d.s {
			if len(v) > len(b) {
				t.Fatalf("value %q longer than the file", v)
			}
		}
	})
}

func FuzzNumbers(f *testing.F) {
	f.Add([]byte("1 2 3 4 5 6 7\n"))
	f.Add([]byte("-1 +2 x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var v [7]uint64
		parseNumbers(v[:], b)
	})
}

func FuzzKeyed(f *testing.F) {
	f.Add([]byte("rchar: 1\nwchar: 2\nsyscr: 3\n"))
	f.Add([]byte("Rss:  100 kB\nPss: 5 kB\nLocked:"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var io [7]uint64
		parseKeyed(io[:], ioKeys[:], b)
		var sm [20]uint64
		parseKeyed(sm[:], smapsKeys[:], b)
	})
}

func FuzzCgroup(f *testing.F) {
	f.Add([]byte("12:cpuset:/docker/0123456789012345678901234567890123456789012345678901234567890123\n0::/\n"))
	f.Add([]byte("1:cpuset:/system.slice/docker-0123456789012345678901234567890123456789012345678901234567890123.scope\n"))
	f.Add([]byte("0::/user.slice"))
	f.Fuzz(func(t *testing.T, b []byte) {
		out := cgroupFormat(nil, b)
		if len(out) > 2*len(b) {
			t.Fatal("format grew")
		}
		if c := containerOf(b); len(c) > len(b) {
			t.Fatal("container longer than the file")
		}
	})
}

func FuzzAutogroup(f *testing.F) {
	f.Add([]byte("/autogroup-95 nice 0\n"))
	f.Add([]byte("/autogroup-"))
	f.Fuzz(func(t *testing.T, b []byte) { parseAutogroup(b) })
}

// FuzzPIDName: a name is a pid only when it is all digits and fits one.
func FuzzPIDName(f *testing.F) {
	f.Add([]byte("12"))
	f.Add([]byte("."))
	f.Add([]byte("99999999999"))
	f.Fuzz(func(t *testing.T, b []byte) {
		pid, ok := pidName(b)
		if ok && (pid < 0 || len(b) == 0) {
			t.Fatalf("%q is pid %d", b, pid)
		}
	})
}

// TestParseStatusEveryLine parses a status file holding every line the
// agent reads, each with its own numbers, among lines it does not read
// and lines that only start like them.
func TestParseStatusEveryLine(t *testing.T) {
	text := "Name:\tbash\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t41\nNgid:\t42\nPid:\t41\nPPid:\t1\n" +
		"Uid:\t1\t2\t3\t4\nGid:\t5\t6\t7\t8\nFDSize:\t256\nGroups:\t4 24\nNStgid:\t41\t9\nNSpid:\t41 10\n" +
		"NSpgid:\t40\t11\nNSsid:\t39\t12\nVmPeak:\t 101 kB\nVmSize:\t 102 kB\nVmLck:\t 103 kB\nVmPin:\t 104 kB\n" +
		"VmHWM:\t 105 kB\nVmRSS:\t 106 kB\nRssAnon:\t 1 kB\nVmData:\t 107 kB\nVmStk:\t 108 kB\nVmExe:\t 109 kB\n" +
		"VmLib:\t 110 kB\nVmPTE:\t 111 kB\nVmSwap:\t 112 kB\nThreads:\t3\nSigQ:\t0/100\nSigPnd:\t00a\nShdPnd:\t0\n" +
		"SigBlk:\t00b\nSigIgn:\t00c\nSigCgt:\t00d\nCpus_allowed:\tff\nCpus_allowed_list:\t0-7\n" +
		"voluntary_ctxt_switches:\t13\nnonvoluntary_ctxt_switches:\t14\nenvID:\t15\nVmPeakX\nUidless\n"
	var d statusData
	var scratch []byte
	parseStatus(&d, []byte(text), &scratch)
	wantU := [statusNums]uint32{stUID: 1, stEUID: 2, stSUID: 3, stFSUID: 4, stGID: 5, stEGID: 6, stSGID: 7, stFSGID: 8,
		stVmPeak: 101, stVmSize: 102, stVmLck: 103, stVmPin: 104, stVmHWM: 105, stVmRSS: 106, stVmData: 107,
		stVmStk: 108, stVmExe: 109, stVmLib: 110, stVmPTE: 111, stVmSwap: 112, stThreads: 3, stVctxsw: 13,
		stNvctxsw: 14, stTgid: 41, stEnvID: 15, stNgid: 42}
	wantS := [statusStrs]string{ssSigPnd: "00a", ssSigBlk: "00b", ssSigIgn: "00c", ssSigCgt: "00d",
		ssCpusAllowed: "0-7", ssNStgid: "41,9", ssNSpid: "41,10", ssNSpgid: "40,11", ssNSsid: "39,12"}
	const all = hasCpusAllowed | hasNgid | hasNStgid | hasNSpid | hasNSpgid | hasNSsid | hasTgid | hasEnvID
	if d.u != wantU || d.s != wantS || d.has != all {
		t.Errorf("parsed\n%v %q %#x\nwant\n%v %q %#x", d.u, d.s, d.has, wantU, wantS, all)
	}
	parseStatus(&d, []byte("Uid:\t9\t9\t9\t9\n"), &scratch)
	if d.has != 0 || d.u[stUID] != 9 || d.u[stVmRSS] != 106 {
		t.Errorf("a second file: %v %#x (lines it lacks keep their values, its has bits go)", d.u, d.has)
	}
}
