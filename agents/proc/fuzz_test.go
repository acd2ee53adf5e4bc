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

func FuzzDirents(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 24, 0, 4, '1', '2', 0, 0, 0})
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 20, 0, 4, '.'})
	f.Fuzz(func(t *testing.T, b []byte) {
		walkDirents(b, func(name []byte) {
			if len(name) == 0 {
				t.Fatal("empty name")
			}
			pidName(name)
		})
	})
}
