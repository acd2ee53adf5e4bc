package linux

import (
	"github.com/gopcp/gopcp/pmda"
)

// Fibre Channel hosts (/sys/class/fc_host/hostN/statistics) and the NFS
// server's thread pools (/proc/fs/nfsd/pool_threads and pool_stats).

const fchostInDom = 39

// fchostFields are the statistics files and the metrics PCP's agent
// reports them under; words are four bytes, so word counts are shifted by
// 2. PCP's agent stores the files in one order and reads the metrics in
// another, so out.frames carries the received words and in.bytes the
// transmitted frames; we report what it reports.
var fchostFields = []struct {
	file, metric string
	shift        uint
}{
	{"rx_frames", "in.frames", 0}, {"rx_words", "out.frames", 2},
	{"tx_frames", "in.bytes", 0}, {"tx_words", "out.bytes", 2},
	{"lip_count", "lip_count", 0}, {"nos_count", "nos_count", 0},
	{"error_frames", "error_frames", 0}, {"dumped_frames", "dumped_frames", 0},
}

type fcHost struct {
	counts  [8]uint64
	present bool
}

type nfsdData struct {
	ok                                 bool
	threads, pools                     uint64
	arrived, enqueued, woken, timedout uint64
}

func (x *Linux) bindFCHost() {
	x.sources[srcFCHost] = x.readFCHost
	for i, f := range fchostFields {
		x.bind("fchost."+f.metric, srcFCHost, func(inst int32) (pcpAtom, error) {
			if inst < 0 || int(inst) >= len(x.fchosts) || !x.fchosts[inst].present {
				return pcpAtom{}, noInst
			}
			return u64(x.fchosts[inst].counts[i]), nil
		})
	}
	n := &x.nfsd
	x.sources[srcNFSD] = x.readNFSD
	for name, p := range map[string]*uint64{
		"total": &n.threads, "pools": &n.pools, "requests": &n.arrived,
		"enqueued": &n.enqueued, "processed": &n.woken, "timedout": &n.timedout,
	} {
		x.bind("nfs.server.threads."+name, srcNFSD, func(int32) (pcpAtom, error) {
			if !n.ok {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return u64(*p), nil
		})
	}
}

// readFCHost lists FC hosts with their statistics.
func (x *Linux) readFCHost() error {
	t := &x.indoms[fchostInDom]
	for i := range x.fchosts {
		x.fchosts[i].present = false
	}
	t.begin()
	defer t.end()
	if x.dir.Read(true, x.sys, "/class/fc_host") != nil {
		return nil
	}
	for e := range x.dir.Len() {
		name := x.dir.At(e)
		id := t.add(name)
		for int(id) >= len(x.fchosts) {
			x.fchosts = append(x.fchosts, fcHost{})
		}
		h := &x.fchosts[id]
		h.present = true
		for i, f := range fchostFields {
			h.counts[i] = 0
			x.scratch = append(append(append(x.scratch[:0], x.sys...), "/class/fc_host/"...), name...)
			b, err := x.fb.readBytes(append(append(x.scratch, "/statistics/"...), f.file...))
			if err != nil {
				continue
			}
			v := parseHex(trimSpace(b)) // the kernel writes 0x...
			if v == ^uint64(0) {
				v = 0
			}
			h.counts[i] = v << f.shift
		}
	}
	return nil
}

// readNFSD reads the NFS server's thread count and, when it runs, sums
// its pools' statistics.
func (x *Linux) readNFSD() error {
	n := &x.nfsd
	*n = nfsdData{}
	b, err := x.readProc("fs/nfsd/pool_threads")
	if err != nil {
		return nil
	}
	n.ok = true
	n.threads = parseU64(b)
	if n.threads == 0 {
		return nil
	}
	b, err = x.readProc("fs/nfsd/pool_stats")
	if err != nil {
		n.ok = false
		return nil
	}
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		x.fields = fields(line, x.fields)
		f := x.fields
		if len(f) < 5 {
			break
		}
		n.pools++
		n.arrived += parseU64(f[1])
		n.enqueued += parseU64(f[2])
		n.woken += parseU64(f[3])
		n.timedout += parseU64(f[4])
	}
	n.ok = n.pools > 0
	return nil
}
