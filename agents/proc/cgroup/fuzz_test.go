package cgroup

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// FuzzScanners: the C-style number and word scanners stay within their
// input and agree with strconv on plain decimal numbers.
func FuzzScanners(f *testing.F) {
	for _, s := range []string{"42", "-1", "0x1f", "010", "18446744073709551616", " +7 x", "1e5", "-3.5", "inf", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, base := range []int{0, 10} {
			v, end, ok := strtoull(s, 0, base)
			if end < 0 || end > len(s) || (!ok && end != 0) {
				t.Fatalf("strtoull(%q) end %d ok %v", s, end, ok)
			}
			if base == 10 && ok && isDecimal(s) {
				if want, err := strconv.ParseUint(s, 10, 64); err == nil && want != v {
					t.Fatalf("strtoull(%q) = %d, strconv %d", s, v, want)
				}
			}
		}
		if _, end, ok := strtoll(s, 0); end < 0 || end > len(s) || (!ok && end != 0) {
			t.Fatalf("strtoll(%q) end %d", s, end)
		}
		if _, end, _ := scanFloat(s, 0); end < 0 || end > len(s) {
			t.Fatalf("scanFloat(%q) end %d", s, end)
		}
		if w, end, ok := scanWord(s, 0); end > len(s) || (ok && (w == "" || strings.ContainsAny(w, " \t\n"))) {
			t.Fatalf("scanWord(%q) = %q, %d", s, w, end)
		}
	})
}

func isDecimal(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// FuzzPressure: a pressure file's scan never reads past its text.
func FuzzPressure(f *testing.F) {
	f.Add("some avg10=2.91 avg60=12.50 avg300=7.04 total=987654\nfull avg10=1.20 avg60=3.00 avg300=0.99 total=55555\n")
	f.Add("some avg10=0.00 avg60=0.00\nfull")
	f.Fuzz(func(t *testing.T, s string) {
		pos := 0
		scanPressure(s, &pos, "some")
		p1 := pos
		scanPressure(s, &pos, "full")
		if p1 < 0 || pos < p1 || pos > len(s) {
			t.Fatalf("positions %d, %d of %d", p1, pos, len(s))
		}
	})
}

// FuzzNames: cgroup names decode without panics; a container ID is empty
// or 64 bytes of the name.
func FuzzNames(f *testing.F) {
	f.Add(`/system.slice/docker-0ea0c4f1e2d3c4b5a6978877665544332211aabbccddeeff00112233445566aa.scope`)
	f.Add(`/a\x2db\x4`)
	f.Add("/docker/x\n")
	f.Fuzz(func(t *testing.T, name string) {
		unescape(name)
		id := containerID(name)
		if id != "" && (len(id) != sha256Len || !strings.Contains(name, id)) {
			t.Fatalf("containerID(%q) = %q", name, id)
		}
		for _, serial := range indoms {
			for _, l := range instLabels(serial, name) {
				if _, err := l.Value.(rawString).MarshalJSON(); err != nil {
					t.Fatalf("label %q of %q: %v", l.Name, name, err)
				}
			}
		}
	})
}

// fuzzFiles are the files the cgroup readers parse, in a v1 and a v2
// tree; FuzzFiles puts its input in one of them.
var fuzzFiles = []string{
	"proc/mounts", "proc/cgroups", "proc/diskstats",
	"sys/fs/cgroup/cpu.stat", "sys/fs/cgroup/memory.stat", "sys/fs/cgroup/io.stat",
	"sys/fs/cgroup/cpu.pressure", "sys/fs/cgroup/io.pressure", "sys/fs/cgroup/irq.pressure",
	"sys/fs/cgroup/g/memory.pressure", "sys/fs/cgroup/g/cpu.shares", "sys/fs/cgroup/g/cpu.cfs_quota_us",
	"v1/cpu/cpuacct.usage_percpu", "v1/cpu/cpuacct.stat", "v1/cpu/cpu.stat", "v1/cpu/cpu.cfs_quota_us",
	"v1/blkio/blkio.io_serviced", "v1/blkio/blkio.time", "v1/blkio/blkio.throttle.io_service_bytes",
	"v1/memory/memory.stat", "v1/memory/memory.usage_in_bytes", "v1/cpuset/cpuset.cpus",
	"v1/net/net_cls.classid",
}

const fuzzMountsV1 = "cgroup2 /v1/net cgroup2 rw 0 0\ncgroup /v1/cpu cgroup rw,cpu,cpuacct 0 0\n" +
	"cgroup /v1/blkio cgroup rw,blkio 0 0\ncgroup /v1/memory cgroup rw,memory 0 0\ncgroup /v1/cpuset cgroup rw,cpuset 0 0\n"

// FuzzFiles: whatever one file holds, a refresh of every cluster and a
// fetch of every metric and instance end without a panic, within the
// bounds, and the other files' values stay.
func FuzzFiles(f *testing.F) {
	for i := range fuzzFiles {
		f.Add(uint8(i), false, []byte("8:0 Read 1\n8:0 Total 2\nsome avg10=1.00 avg60=2.00 avg300=3.00 total=4\nuser 5\n1 2 3 \n"))
		f.Add(uint8(i), true, []byte("cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n"))
	}
	f.Fuzz(func(t *testing.T, which uint8, v1 bool, data []byte) {
		root := t.TempDir()
		write := func(p string, b []byte) {
			p = filepath.Join(root, p)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		mounts := "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n"
		if v1 {
			mounts = fuzzMountsV1
		}
		write("proc/mounts", []byte(mounts))
		write("proc/cgroups", []byte("cpu\t1\t1\t1\nmemory\t2\t2\t1\n"))
		write("proc/diskstats", []byte("8 0 sda 1 2 3\n"))
		write("sys/fs/cgroup/g/cpu.stat", []byte("usage_usec 7\n"))
		write("v1/cpu/g/cpu.shares", []byte("7\n"))
		target := fuzzFiles[int(which)%len(fuzzFiles)]
		write(target, data)
		s := New(Options{Root: root, MaxCgroups: 64})
		var all []pcp.PMID
		for _, m := range s.metrics {
			all = append(all, m.Desc.PMID)
		}
		for range 2 {
			s.Refresh(all)
			for _, serial := range indoms {
				s.RefreshInDom(pcp.NewInDom(Domain, serial))
			}
			for _, m := range s.metrics {
				if m.Desc.InDom == pcp.InDomNull {
					if _, err := s.Fetch(&m, pcp.InstNull); err != nil {
						t.Fatalf("%s: %v", m.Name, err)
					}
					continue
				}
				insts, err := s.Instances(m.Desc.InDom)
				if err != nil {
					t.Fatal(err)
				}
				if len(insts) > keepFactor*64*64 {
					t.Fatalf("%s: %d instances", m.Name, len(insts))
				}
				for _, in := range insts {
					s.Fetch(&m, in.ID)
				}
			}
		}
		// The cgroup /g's value, from a file the input is not in, stays.
		if target == "proc/mounts" {
			return
		}
		id, want := pcp.NewPMID(Domain, ClusterCPUStat, 2), uint64(7) // cgroup.cpu.stat.usage
		if v1 {
			id = pcp.NewPMID(Domain, ClusterCpusched, 0) // cgroup.cpusched.shares
		}
		m := s.metricOf(id)
		var got []uint64
		insts, _ := s.Instances(m.Desc.InDom)
		for _, in := range insts {
			if in.Name == "/g" {
				a, err := s.Fetch(&m, in.ID)
				if err == nil {
					got = append(got, a.ULL)
				}
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Fatalf("%s of /g: %v, want %d (input in %s)", m.Name, got, want, target)
		}
	})
}

// FuzzDirents: directory records decode within their buffer, one entry
// per record at most.
func FuzzDirents(f *testing.F) {
	rec := func(name string, typ byte) []byte {
		n := 19 + len(name) + 1
		n = (n + 7) &^ 7
		b := make([]byte, n)
		binary.NativeEndian.PutUint16(b[16:], uint16(n))
		b[18] = typ
		copy(b[19:], name)
		return b
	}
	f.Add(append(rec(".", 4), rec("system.slice", 4)...))
	f.Add(rec("cpu.stat", 8)[:20])
	f.Fuzz(func(t *testing.T, b []byte) {
		out := parseDirents(b, nil)
		if len(out) > len(b)/19 {
			t.Fatalf("%d entries from %d bytes", len(out), len(b))
		}
		for _, e := range out {
			if strings.IndexByte(e.name, 0) >= 0 {
				t.Fatalf("name %q has a NUL", e.name)
			}
		}
	})
}
