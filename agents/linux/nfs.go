package linux

import (
	"sync"

	"github.com/gopcp/gopcp/pmda"
)

// rpcOp is an NFS operation: its instance number and name.
type rpcOp struct {
	id   int32
	name string
}

// NFS instance domains.
const (
	nfsInDom     = 7
	nfs3InDom    = 8
	nfs4CliInDom = 14
	nfs4SvrInDom = 15
)

// rpcSide is one side (client or server) of /proc/net/rpc/nfs{,d}.
type rpcSide struct {
	ok     bool
	fields map[string]uint64
	reqs   [3][]uint64 // NFSv2, v3, v4 operation counts by instance number
}

type rpcData struct {
	client, server rpcSide
}

func (x *Linux) bindNFS() {
	r := &x.rpc
	x.sources[srcNFS] = x.readNFS
	for _, d := range []struct {
		serial int
		ops    []rpcOp
	}{{nfsInDom, nfsOps}, {nfs3InDom, nfs3Ops}, {nfs4CliInDom, nfs4CliOps}, {nfs4SvrInDom, nfs4SvrOps}} {
		ins := make([]pmda.Instance, len(d.ops))
		for i, op := range d.ops {
			ins[i] = pmda.Instance{ID: op.id, Name: op.name}
		}
		x.indoms[d.serial].set(ins)
	}
	// Without its file, PCP's agent leaves most RPC figures without values
	// but reports zero for the rest (items outside the ranges it checks).
	field := func(name string, side *rpcSide, key string) {
		item := findDesc(name).Item
		checked := (item >= 20 && item <= 27) || (item >= 30 && item <= 47) || (item >= 51 && item <= 57)
		x.bind(name, srcNFS, func(int32) (pcpAtom, error) {
			if !side.ok && checked {
				return pcpAtom{}, pmda.ErrNoValue
			}
			return u32(side.fields[key]), nil
		})
	}
	for _, f := range []string{"rpccnt", "rpcretrans", "rpcauthrefresh", "netcnt", "netudpcnt", "nettcpcnt", "nettcpconn"} {
		field("rpc.client."+f, &r.client, f)
	}
	for _, f := range []string{"rpccnt", "rpcerr", "rpcbadfmt", "rpcbadauth", "rpcbadclnt", "rchits", "rcmisses",
		"rcnocache", "fh_cached", "fh_valid", "fh_fixup", "fh_lookup", "fh_stale", "fh_concurrent", "netcnt",
		"netudpcnt", "nettcpcnt", "fh_anon", "fh_nocache_dir", "fh_nocache_nondir", "io_read",
		"io_write", "th_cnt", "th_fullcnt", "ra_size", "ra_hits", "ra_misses"} {
		field("rpc.server."+f, &r.server, f)
	}
	// PCP's agent reports the server's TCP packet count under nettcpconn
	// too (its table points both at one field); so do we.
	field("rpc.server.nettcpconn", &r.server, "nettcpcnt")
	reqs := func(group string, side *rpcSide, v int, ops []rpcOp) {
		x.bind(group+".reqs", srcNFS, func(inst int32) (pcpAtom, error) {
			if !side.ok {
				return pcpAtom{}, pmda.ErrNoValue
			}
			for _, op := range ops {
				if op.id == inst {
					if int(inst) < len(side.reqs[v]) {
						return u32(side.reqs[v][inst]), nil
					}
					return u32(0), nil
				}
			}
			return pcpAtom{}, noInst
		})
		// The total covers the operations PCP knows, not every number the
		// kernel prints.
		x.bind(group+".calls", srcNFS, func(int32) (pcpAtom, error) {
			if !side.ok {
				return pcpAtom{}, pmda.ErrNoValue
			}
			var sum uint64
			for _, op := range ops {
				if int(op.id) < len(side.reqs[v]) {
					sum += side.reqs[v][op.id]
				}
			}
			return u32(sum), nil
		})
	}
	reqs("nfs.client", &r.client, 0, nfsOps)
	reqs("nfs3.client", &r.client, 1, nfs3Ops)
	reqs("nfs4.client", &r.client, 2, nfs4CliOps)
	reqs("nfs.server", &r.server, 0, nfsOps)
	reqs("nfs3.server", &r.server, 1, nfs3Ops)
	reqs("nfs4.server", &r.server, 2, nfs4SvrOps)
}

// rpcLines name the fields of the numbered lines of the two files.
// Made at first use: package init would cost every tool that links the
// agent.
func rpcLines() map[string][]string {
	rpcLinesOnce.Do(func() { rpcLinesOnce.m = makeRPCLines() })
	return rpcLinesOnce.m
}

var rpcLinesOnce struct {
	sync.Once
	m map[string][]string
}

func makeRPCLines() map[string][]string {
	return map[string][]string{
		"c:net": {"netcnt", "netudpcnt", "nettcpcnt", "nettcpconn"},
		"c:rpc": {"rpccnt", "rpcretrans", "rpcauthrefresh"},
		"s:rc":  {"rchits", "rcmisses", "rcnocache", "fh_cached", "fh_valid", "fh_fixup", "fh_lookup", "fh_stale", "fh_concurrent"},
		"s:fh":  {"fh_stale", "fh_lookup", "fh_anon", "fh_nocache_dir", "fh_nocache_nondir"},
		"s:io":  {"io_read", "io_write"},
		"s:th":  {"th_cnt", "th_fullcnt"},
		"s:net": {"netcnt", "netudpcnt", "nettcpcnt", "nettcpconn"},
		"s:rpc": {"rpccnt", "rpcerr", "rpcbadfmt", "rpcbadauth", "rpcbadclnt"},
	}
}

func (x *Linux) readNFS() error {
	x.readRPC(&x.rpc.client, "net/rpc/nfs", "c:")
	x.readRPC(&x.rpc.server, "net/rpc/nfsd", "s:")
	return nil
}

// readRPC parses one of the files: lines of a label and numbers; procN
// lines give a count of operations, then each operation's count; the
// server's proc4ops line counts NFSv4 operations from instance 1.
func (x *Linux) readRPC(side *rpcSide, file, prefix string) {
	b, err := x.readProc(file)
	side.ok = err == nil
	if err != nil {
		return
	}
	if side.fields == nil {
		side.fields = map[string]uint64{}
	}
	clear(side.fields)
	for v := range side.reqs {
		side.reqs[v] = side.reqs[v][:0]
	}
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		x.fields = fields(line, x.fields)
		f := x.fields
		if len(f) == 0 {
			continue
		}
		label := string(f[0])
		switch {
		case label == "proc2" || label == "proc3" || (label == "proc4" && prefix == "c:"):
			v := int(label[4] - '2')
			for _, n := range f[min(2, len(f)):] {
				side.reqs[v] = append(side.reqs[v], parseU64(n))
			}
		case label == "proc4ops" && prefix == "s:":
			side.reqs[2] = append(side.reqs[2], 0) // no instance 0
			for _, n := range f[min(2, len(f)):] {
				side.reqs[2] = append(side.reqs[2], parseU64(n))
			}
		case label == "ra" && prefix == "s:":
			if len(f) > 1 {
				side.fields["ra_size"] = parseU64(f[1])
			}
			var hits uint64
			for i := 2; i < 12 && i < len(f); i++ {
				hits += parseU64(f[i])
			}
			side.fields["ra_hits"] = hits
			if len(f) > 12 {
				side.fields["ra_misses"] = parseU64(f[12])
			}
		default:
			names, ok := rpcLines()[prefix+label]
			if !ok {
				continue
			}
			for i, n := range names {
				if i+1 < len(f) {
					side.fields[n] = parseU64(f[i+1])
				}
			}
		}
	}
}
