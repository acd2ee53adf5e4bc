package pmcd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCPULimit lays out /proc/self and a cgroup v2 tree under a
// directory and reads the limit as the runtime would choose GOMAXPROCS:
// the affinity's CPUs, fewer under a quota rounded up, never below 2.
func TestCPULimit(t *testing.T) {
	const hostMounts = "24 1 0:22 / / rw - ext4 /dev/sda1 rw\n" +
		"41 31 0:38 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 rw\n"
	for _, c := range []struct {
		name      string
		cgroup    string
		mountinfo string
		cpuMax    string // at sys/fs/cgroup/app.slice/pmcd.service
		cpus      int
		want      int
	}{
		{"no quota", "0::/app.slice/pmcd.service\n", hostMounts, "max 100000\n", 8, 8},
		{"quota of 1.5 CPUs", "0::/app.slice/pmcd.service\n", hostMounts, "150000 100000\n", 8, 2},
		{"quota of half a CPU", "0::/app.slice/pmcd.service\n", hostMounts, "50000 100000\n", 8, 2},
		{"quota of 4.2 CPUs", "0::/app.slice/pmcd.service\n", hostMounts, "420000 100000\n", 8, 5},
		{"quota above the CPUs", "0::/app.slice/pmcd.service\n", hostMounts, "800000 100000\n", 2, 2},
		{"one CPU and a quota", "0::/app.slice/pmcd.service\n", hostMounts, "50000 100000\n", 1, 1},
		{"cgroup v1 only", "4:cpu:/app.slice\n", hostMounts, "150000 100000\n", 8, 8},
		{"no cgroup2 mount", "0::/app.slice/pmcd.service\n", "24 1 0:22 / / rw - ext4 /dev/sda1 rw\n", "150000 100000\n", 8, 8},
		{"mount rooted at the service (a container)", "0::/app.slice/pmcd.service\n",
			"41 31 0:38 /app.slice /sys/fs/cgroup/app.slice rw - cgroup2 cgroup2 rw\n", "300000 100000\n", 8, 3},
		{"garbage cpu.max", "0::/app.slice/pmcd.service\n", hostMounts, "lots 100000\n", 8, 8},
		{"period 0", "0::/app.slice/pmcd.service\n", hostMounts, "100000 0\n", 8, 8},
		{"affinity unknown", "0::/app.slice/pmcd.service\n", hostMounts, "150000 100000\n", 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			write := func(name, text string) {
				p := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("proc/self/cgroup", c.cgroup)
			write("proc/self/mountinfo", c.mountinfo)
			write("sys/fs/cgroup/app.slice/pmcd.service/cpu.max", c.cpuMax)
			if got := cpuLimit(root, c.cpus); got != c.want {
				t.Errorf("cpuLimit = %d, want %d", got, c.want)
			}
		})
	}
}

// TestCPULimitHere reads this machine's limit: at least one CPU, and no
// more than the CPUs of the affinity.
func TestCPULimitHere(t *testing.T) {
	n := affinityCount()
	if n < 1 {
		t.Fatalf("affinityCount() = %d", n)
	}
	if got := CPULimit(); got < 1 || got > n {
		t.Fatalf("CPULimit() = %d with %d CPUs", got, n)
	}
}

func FuzzParseCPUMax(f *testing.F) {
	for _, s := range []string{"max 100000\n", "150000 100000\n", "0 0", "1 2 3", "-1 100000", "18446744073709551615 1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		q, ok := parseCPUMax(b)
		if ok && (q < 0 || q != q) {
			t.Fatalf("parseCPUMax(%q) = %v", b, q)
		}
	})
}

func FuzzCgroupV2Dir(f *testing.F) {
	f.Add([]byte("0::/a/b\n"), []byte("41 31 0:38 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"))
	f.Add([]byte("0::/a/b\n"), []byte("41 31 0:38 /a /mnt rw shared:1 - cgroup2 cgroup2 rw\n"))
	f.Add([]byte("0::/../../etc\n"), []byte("41 31 0:38 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"))
	f.Fuzz(func(t *testing.T, cg, mounts []byte) {
		dir, ok := cgroupV2Dir(cg, mounts)
		if !ok {
			return
		}
		// The cgroup's path cannot climb out of the mount point.
		for line := range strings.Lines(string(mounts)) {
			if f := strings.Fields(line); len(f) > 4 && strings.HasPrefix(dir, filepath.Clean(f[4])) {
				return
			}
		}
		t.Fatalf("cgroupV2Dir(%q, %q) = %q, outside every mount point", cg, mounts, dir)
	})
}
