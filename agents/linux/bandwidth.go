package linux

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"github.com/gopcp/gopcp/pmda"
)

// bandwidthConf reads the optional per-node memory bandwidth settings
// (bandwidth.conf: "Version:1.0" first, then "nodeN:MBPS" lines, #
// comments), re-reading the file only when its modification time changes.
// A malformed file or an unknown node leaves the rest unread, as PCP's
// agent does.
type bandwidthConf struct {
	path  string
	mtime int64
	read  bool
	bw    map[string]float64
	pc    pathCalls
}

// refresh re-reads the file if it changed; as PCP's agent does, it is
// looked at once per refresh of the NUMA statistics.
func (c *bandwidthConf) refresh() {
	mtime, ok := c.modTime()
	if !ok {
		c.bw, c.read, c.mtime = nil, false, 0
		return
	}
	if c.read && mtime == c.mtime {
		return
	}
	c.read, c.mtime = true, mtime
	c.bw = map[string]float64{}
	b, err := os.ReadFile(c.path)
	if err != nil {
		return
	}
	version := false
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		line = strings.TrimLeft(line, " \t")
		if strings.Contains(line, "Version") {
			k, v, ok := strings.Cut(line, ":")
			if !ok || !strings.HasPrefix(k, "Version") || !strings.HasPrefix(strings.TrimLeft(v, " \t"), "1.0") {
				return
			}
			version = true
			continue
		}
		if !version {
			return
		}
		node, v, ok := strings.Cut(line, ":")
		if !ok {
			return
		}
		f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
		c.bw[node] = f
	}
}

// modTime is the file's modification time in nanoseconds, from an
// fstatat(2) relative to the working directory of a kept NUL-terminated
// path, which follows symbolic links as stat(2) does (os.Stat allocates
// a FileInfo and a copy of the path each time).
func (c *bandwidthConf) modTime() (int64, bool) {
	var st syscall.Stat_t
	p := c.pc.set(c.path)
	_, _, errno := syscall.Syscall6(sysFstatat, uintptr(atFDCWD), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&st)), 0, 0, 0)
	if errno != 0 {
		return 0, false
	}
	return st.Mtim.Nano(), true
}

func (x *Linux) bindBandwidth() {
	c := &x.bandwidth
	x.bind("mem.numa.max_bandwidth", srcNUMA, func(inst int32) (pcpAtom, error) {
		for _, in := range x.indoms[nodeInDom].list() {
			if in.ID == inst {
				if v := c.bw[in.Name]; v > 0 {
					return f64(v), nil
				}
				return pcpAtom{}, pmda.ErrNoValue
			}
		}
		return pcpAtom{}, noInst
	})
}
