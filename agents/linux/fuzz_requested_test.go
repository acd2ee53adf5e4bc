package linux

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// FuzzRequestedFiles feeds arbitrary bytes as the contents of each file
// the agent asks for when every metric is fetched, whether or not the
// fixture has it: FuzzSources picks among the fixture's files only, so
// the parsers of files it lacks (cpuinfo, slabinfo and the serial ports,
// which only a privileged client reaches, nfs, raw sockets, cpufreq, the
// extfrag index...) were never fed. The list is found by asking, so a
// file the agent starts reading later is fuzzed too. No content may
// panic or hang a fetch, and a fetch of every metric still answers for
// every PMID asked (values or an error per metric, never a failed
// request).
func FuzzRequestedFiles(f *testing.F) {
	root := "testdata/fixture"
	x, err := newLinux(Options{ProcRoot: root + "/proc", SysRoot: root + "/sys", EtcRoot: root + "/etc",
		UtmpPath: root + "/utmp", InterfacesConf: root + "/none", NoCache: true, AllAccess: true})
	if err != nil {
		f.Fatal(err)
	}
	a, err := x.agent(Domain)
	if err != nil {
		f.Fatal(err)
	}
	var pmids []pcp.PMID
	for i := range pcpDescs {
		if _, ok := x.boundAt(i); ok {
			pmids = append(pmids, pcpDescs[i].desc(Domain).PMID)
		}
	}
	fixture := func(path string) ([]byte, error) {
		if strings.HasPrefix(path, root) {
			return os.ReadFile(path)
		}
		return nil, os.ErrNotExist
	}
	asked := map[string]bool{}
	readHook = func(path string) ([]byte, error) {
		asked[path] = true
		return fixture(path)
	}
	f.Cleanup(func() { readHook = nil })
	if _, err := a.Fetch(context.Background(), 0, pmids); err != nil {
		f.Fatal(err)
	}
	var files []string
	for p := range asked {
		files = append(files, p)
	}
	slices.Sort(files)
	// Seeds: each file's fixture contents where there are some, and a
	// few lines in the kernel's shape for the ones the fixture lacks.
	lacking := map[string]string{
		"proc/cpuinfo":                "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu MHz\t\t: 2400.000\ncache size\t: 8192 KB\nbogomips\t: 4800.00\nflags\t\t: fpu vme\n\nprocessor\t: 1\n",
		"proc/slabinfo":               "slabinfo - version: 2.1\n# name <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\nkmalloc-64 1000 1024 64 64 1 : tunables 0 0 0 : slabdata 16 16 0\n",
		"proc/tty/driver/serial":      "serinfo:1.0 driver revision:\n0: uart:16550A port:000003F8 irq:4 tx:0 rx:0\n1: uart:unknown port:000002F8 irq:3\n",
		"proc/net/rpc/nfs":            "net 0 0 0 0\nrpc 10 0 0\nproc3 22 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21\n",
		"proc/net/rpc/nfsd":           "rc 0 0 0\nth 8 0 0.000 0.000\nproc4ops 3 0 1 2\n",
		"proc/net/raw":                "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n   0: 00000000:0001 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 1 2 0000000000000000 0\n",
		"cpufreq/stats/time_in_state": "2400000 100\n1200000 50\n",
		"extfrag/unusable_index":      "Node 0, zone      DMA 0.000 0.000 0.000\nNode 0, zone   Normal 0.100 0.200\n",
		"fs/nfsd/pool_threads":        "8\n",
		"pressure/irq":                "full avg10=0.00 avg60=0.00 avg300=0.00 total=12\n",
		// the fixture's System V IPC tables are empty
		"sysvipc/shm": "       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap\n" +
			"         0          7  1600               524288  1234  1300      2  1000  1000  1000  1000 1700000000 1700000001 1700000002                  4096                     0\n",
		"sysvipc/msg": "       key      msqid perms      cbytes       qnum lspid lrpid   uid   gid  cuid  cgid      stime      rtime      ctime\n" +
			"1234567890          3   666          10          1    55    56     0     0     0     0 1700000000 1700000001 1700000002\n",
		"sysvipc/sem": "       key      semid perms      nsems   uid   gid  cuid  cgid      otime      ctime\n" +
			"         0          2   600          4     0     0     0     0          0 1700000000\n",
	}
	for i, p := range files {
		if b, err := fixture(p); err == nil {
			f.Add(uint16(i), b)
		}
		for suffix, s := range lacking {
			if strings.HasSuffix(p, suffix) {
				f.Add(uint16(i), []byte(s))
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint16, body []byte) {
		target := files[int(which)%len(files)]
		readHook = func(path string) ([]byte, error) {
			if path == target {
				return body, nil
			}
			return fixture(path)
		}
		defer func() { readHook = nil }()
		r, err := a.Fetch(context.Background(), 0, pmids)
		if err != nil {
			t.Fatalf("%s: fetch failed: %v", target, err)
		}
		if len(r.Sets) != len(pmids) {
			t.Fatalf("%s: %d value sets for %d metrics", target, len(r.Sets), len(pmids))
		}
		for i := range r.Sets {
			if r.Sets[i].PMID != pmids[i] {
				t.Fatalf("%s: set %d is %v, asked for %v", target, i, r.Sets[i].PMID, pmids[i])
			}
			if n := r.Sets[i].NumVal; n >= 0 && int(n) != len(r.Sets[i].Values) {
				t.Fatalf("%s: %v has %d values, says %d", target, pmids[i], len(r.Sets[i].Values), n)
			}
		}
	})
}
