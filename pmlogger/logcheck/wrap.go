package logcheck

import (
	"fmt"
	"math"
	"strings"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

// instData is the last value seen of one instance of a metric, kept
// in 24 bytes: an archive of processes has hundreds of thousands (7.8 MB
// of pmlogcheck's 28 MB peak over a QA archive when each was an object
// of 32 and a pointer).
type instData struct {
	lastVal float64
	lastSec int64 // lastTime, its Sec and Nsec
	lastNs  int32
	inst    int32
}

func (in *instData) lastTime() pcp.Timestamp { return pcp.Timestamp{Sec: in.lastSec, Nsec: in.lastNs} }

func (in *instData) set(v float64, t pcp.Timestamp) {
	in.lastVal, in.lastSec, in.lastNs = v, t.Sec, t.Nsec
}

// checkData is what pass 3 remembers of a numeric metric; nil in the map
// for a metric whose descriptor is missing.
type checkData struct {
	desc   pcp.Desc
	valfmt pcp.ValFmt
	insts  []instData
}

func numeric(t pcp.Type) bool {
	switch t {
	case pcp.Type32, pcp.TypeU32, pcp.Type64, pcp.TypeU64, pcp.TypeFloat, pcp.TypeDouble:
		return true
	}
	return false
}

func typeStr(t pcp.Type) string {
	switch t {
	case pcp.Type32:
		return "signed 32-bit"
	case pcp.TypeU32:
		return "unsigned 32-bit"
	case pcp.Type64:
		return "signed 64-bit"
	case pcp.TypeU64:
		return "unsigned 64-bit"
	}
	return "unknown type"
}

// metricNames is every name of pmid joined by " or ", or its identifier.
func metricNames(ns Names, pmid pcp.PMID) string {
	names, err := ns.Names(pmid)
	if err != nil || len(names) == 0 {
		return pmid.String()
	}
	return strings.Join(names, " or ")
}

// instName finds an instance's name in any record of its domain, newest
// first, as pmNameInDomArchive does. The names of each domain are
// gathered once.
func (c *checker) instName(a *archive.Archive, indom pcp.InDom, inst int32) (string, bool) {
	if indom == pcp.InDomNull {
		return "", false
	}
	if c.instNames == nil {
		c.instNames = map[pcp.InDom]map[int32]string{}
		a.Meta.EachInDom(func(id pcp.InDom, history []*archive.InDom) {
			names := map[int32]string{}
			for i := len(history) - 1; i >= 0; i-- {
				for k, x := range history[i].Insts {
					if _, ok := names[x]; !ok && (history[i].Deleted == nil || !history[i].Deleted[k]) {
						names[x] = history[i].Names[k]
					}
				}
			}
			c.instNames[id] = names
		})
	}
	name, ok := c.instNames[indom][inst]
	return name, ok
}

// docheck follows each counter's values for wraps: a value below the one
// before it in a 32- or 64-bit integer counter.
func (c *checker) docheck(a *archive.Archive, name string, vol int, res *pcp.Result, data map[pcp.PMID]*checkData) (fatal bool) {
	w := c.w
	where := func() string { return fmt.Sprintf("%s.%d:[%s]", name, vol, c.stamp(res.Timestamp)) }
	for i := range res.Sets {
		vs := &res.Sets[i]
		if vs.NumVal <= 0 {
			continue
		}
		cd, seen := data[vs.PMID]
		if !seen {
			desc, err := a.Meta.Desc(vs.PMID)
			if err != nil {
				fmt.Fprintf(w, "%s %s: pmLookupDesc failed: %s\n", where(), metricNames(c.ns, vs.PMID), pcp.Error(archive.Code(err)).Error())
				data[vs.PMID] = nil
				continue
			}
			if !numeric(desc.Type) {
				continue
			}
			cd = &checkData{desc: desc, valfmt: vs.ValFmt, insts: make([]instData, 0, vs.NumVal)}
			for j := range vs.Values[:vs.NumVal] {
				if !c.newInst(a, cd, vs, j, res.Timestamp, where) {
					return true
				}
			}
			data[vs.PMID] = cd
			continue
		}
		if cd == nil {
			continue
		}
		if cd.valfmt != vs.ValFmt {
			fmt.Fprintf(w, "%s %s: encoding botch valfmt=%d not %d as expected\n", where(), metricNames(c.ns, vs.PMID), vs.ValFmt, cd.valfmt)
			continue
		}
		for j := range vs.Values[:vs.NumVal] {
			v := &vs.Values[j]
			k := j
			if vs.NumVal > 1 || cd.desc.InDom != pcp.InDomNull {
				if k < len(cd.insts) && cd.insts[k].inst != v.Inst {
					for k = 0; k < len(cd.insts); k++ {
						if cd.insts[k].inst == v.Inst {
							break
						}
					}
					if k == len(cd.insts) {
						if !c.newInst(a, cd, vs, j, res.Timestamp, where) {
							return true
						}
						continue
					}
				} else if k >= len(cd.insts) {
					if !c.newInst(a, cd, vs, j, res.Timestamp, where) {
						return true
					}
					continue
				}
			}
			if k >= len(cd.insts) {
				if !c.newInst(a, cd, vs, j, res.Timestamp, where) {
					return true
				}
				continue
			}
			in := &cd.insts[k]
			diff := max(res.Timestamp.Sub(in.lastTime()), 0)
			atom, err := pcp.ExtractValue(vs.ValFmt, v, cd.desc.Type, pcp.TypeDouble)
			if err != nil {
				fmt.Fprintf(w, "%s %s: pmExtractValue failed: %s\n", where(), metricNames(c.ns, vs.PMID), pcp.TextOf(err))
				continue
			}
			if cd.desc.Sem == pcp.SemCounter {
				if diff == 0 {
					continue
				}
				if c.opt.DebugCounters {
					fmt.Fprintf(w, "%s.%d:[%s] %s: current counter value is %.0f\n", name, vol, c.stamp(res.Timestamp), metricNames(c.ns, cd.desc.PMID), atom.D)
				}
				if !c.opt.NoWrap {
					c.unwrap(a, name, vol, atom.D, res.Timestamp, cd, in)
				}
			}
			in.set(atom.D, res.Timestamp)
		}
	}
	return false
}

// newInst starts following value j of vs; false when its value cannot
// be had, which ends pmlogcheck.
func (c *checker) newInst(a *archive.Archive, cd *checkData, vs *pcp.ValueSet, j int, t pcp.Timestamp, where func() string) bool {
	atom, err := pcp.ExtractValue(vs.ValFmt, &vs.Values[j], cd.desc.Type, pcp.TypeDouble)
	if err != nil {
		fmt.Fprintf(c.w, "%s %s: pmExtractValue failed: %s\n", where(), metricNames(c.ns, vs.PMID), pcp.TextOf(err))
		fmt.Fprintf(c.w, "%s: possibly corrupt archive?\n", c.opt.Prog)
		return false
	}
	cd.insts = append(cd.insts, instData{inst: vs.Values[j].Inst})
	cd.insts[len(cd.insts)-1].set(atom.D, t)
	return true
}

func (c *checker) unwrap(a *archive.Archive, name string, vol int, cur float64, t pcp.Timestamp, cd *checkData, in *instData) {
	if cur-in.lastVal >= 0 || in.lastSec <= 0 {
		return
	}
	switch cd.desc.Type {
	case pcp.Type32, pcp.TypeU32, pcp.Type64, pcp.TypeU64:
	default:
		return
	}
	fmt.Fprintf(c.w, "%s.%d:[%s]: %s", name, vol, c.stamp(t), metricNames(c.ns, cd.desc.PMID))
	if iname, ok := c.instName(a, cd.desc.InDom, in.inst); ok {
		fmt.Fprintf(c.w, "[%s]: %s wrap", iname, typeStr(cd.desc.Type))
	} else {
		fmt.Fprintf(c.w, ": %s wrap", typeStr(cd.desc.Type))
	}
	fmt.Fprintf(c.w, "\n\tvalue %s at %s\n\tvalue %s at %s\n", fmtF(in.lastVal), c.stamp(in.lastTime()), fmtF(cur), c.stamp(t))
}

// fmtF is C's %.0f.
func fmtF(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.0f", f)
}
