package proc

import (
	"github.com/gopcp/gopcp/pcp"
)

// Cluster numbers of PCP's pmdaproc (its clusters.h): each per-process
// cluster of proc.* has a twin for hotproc.*.
const (
	cStat       = 8
	cStatm      = 9
	cControl    = 10
	cCgroup     = 11
	cLabel      = 12
	cRunq       = 13
	cStatus     = 24
	cSchedstat  = 31
	cIO         = 32
	cSmaps      = 33
	cFD         = 51
	cOOM        = 62
	cExe        = 69
	cCwd        = 72
	cAutogroup  = 74
	cHotGlobal  = 60
	cHotPred    = 61
	maxClusters = 77
)

// hotClusters are the hotproc.* clusters that have a twin.
var hotClusters = [...]uint32{52, 53, 54, 55, 56, 57, 58, 34, 59, 63, 71, 73, 75}

// hotTwin maps a hotproc.* cluster to its proc.* twin. (Switches and
// zero values rather than maps and calls at package level: those run at
// init, and every tool links this package for -L.)
func hotTwin(cluster uint32) (uint32, bool) {
	switch cluster {
	case 52:
		return cStat, true
	case 53:
		return cStatm, true
	case 54:
		return cCgroup, true
	case 55:
		return cLabel, true
	case 56:
		return cStatus, true
	case 57:
		return cSchedstat, true
	case 58:
		return cIO, true
	case 34:
		return cSmaps, true
	case 59:
		return cFD, true
	case 63:
		return cOOM, true
	case 71:
		return cExe, true
	case 73:
		return cCwd, true
	case 75:
		return cAutogroup, true
	}
	return 0, false
}

// nprocsItem is proc.nprocs (and hotproc.nprocs) in the stat cluster.
const nprocsItem = 99

// fileOf is the file a per-process metric (a proc.* cluster and item)
// is read from; ok is false for metrics read from no file.
func fileOf(cluster, item uint32) (file, bool) {
	switch cluster {
	case cStat:
		switch item {
		case 0, 41, nprocsItem:
			return 0, false
		case 40:
			return fWchan, true
		case 47:
			return fEnviron, true
		}
		return fStat, true
	case cStatm:
		if item == 7 {
			return fMaps, true
		}
		return fStatm, true
	case cCgroup:
		return fCgroup, true
	case cLabel:
		return fLabel, true
	case cStatus:
		return fStatus, true
	case cSchedstat:
		return fSchedstat, true
	case cIO:
		return fIO, true
	case cSmaps:
		return fSmaps, true
	case cFD:
		return fFD, true
	case cOOM:
		return fOOM, true
	case cExe:
		return fExe, true
	case cCwd:
		return fCwd, true
	case cAutogroup:
		if item == 0 {
			return 0, false
		}
		return fAutogroup, true
	}
	return 0, false
}

// Answers of value: like a PCP fetch callback's, 1 a value, 0 none,
// negative a PCP error.
const (
	haveValue = 1
	noValue   = 0
)

// value is one per-process metric (a proc.* cluster and item) of e, whose
// file the fetch has loaded.
func (p *Proc) value(e *entry, cluster, item uint32, a *pcp.Atom) int32 {
	if f, ok := fileOf(cluster, item); ok {
		if e.ok&(1<<f) == 0 {
			if f == fSmaps && e.code[f] != 0 {
				return int32(pcp.ErrAppVersion)
			}
			return e.code[f]
		}
	}
	switch cluster {
	case cStat:
		s := &e.stat
		switch item {
		case 0:
			a.UL = uint32(e.pid)
		case 41:
			a.CP = e.psargs
		case 40:
			a.CP = e.wchan
		case 47:
			a.CP = e.environ
		case 1:
			a.CP = s.cmd
		case 2:
			switch {
			case s.state == 0:
				a.CP = ""
			case s.state < 0x80:
				// one byte's string is the runtime's own: no allocation
				// (string(rune) makes a new one each time)
				a.CP = string([]byte{byte(s.state)})
			default:
				a.CP = string(rune(s.state))
			}
		case 7:
			if int32(s.v[sTTYPgrp]) < 0 {
				return noValue
			}
			a.UL = uint32(s.v[sTTYPgrp])
		case 39:
			a.CP = p.ttyName(uint32(s.v[sTTY]))
		case 48:
			a.CP = policyName(uint32(s.v[sPolicy]))
		default:
			return p.statNumber(s, item, a)
		}
	case cStatm:
		if item == 7 {
			a.CP = e.maps
			break
		}
		if item > 6 {
			return int32(pcp.ErrPMID)
		}
		a.UL = uint32(e.statm[item] * p.pageSize / 1024)
	case cStatus:
		return p.statusValue(&e.status, item, a)
	case cSchedstat:
		if item > 2 {
			return int32(pcp.ErrPMID)
		}
		a.ULL = e.sched[item]
	case cIO:
		if item > 6 {
			return int32(pcp.ErrPMID)
		}
		a.ULL = e.io[item]
	case cSmaps:
		if item > 19 {
			return int32(pcp.ErrPMID)
		}
		a.ULL = e.smaps[item]
	case cFD:
		a.UL = e.fdCount
	case cCgroup:
		if item == 0 {
			a.CP = e.cgroups
		} else {
			a.CP = e.container
		}
	case cLabel:
		a.CP = e.label
	case cOOM:
		a.UL = e.oom
	case cCwd:
		a.CP = e.cwd
	case cExe:
		a.CP = e.exe
	case cAutogroup:
		if !p.autogroupOn() {
			return noValue
		}
		if item == 1 {
			a.UL = e.agID
		} else {
			a.L = e.agNice
		}
	default:
		return int32(pcp.ErrPMID)
	}
	return haveValue
}

// How a numeric stat item is served from its field.
const (
	kU32    = iota + 1 // the field in 32 bits
	kI32               // the field as a signed 32-bit number
	kU64               // the field itself
	kMS                // clock ticks as milliseconds
	kKB                // bytes as kilobytes
	kPageKB            // pages as kilobytes
)

// statItems maps the numeric items of the stat cluster to their field
// of statData.v and how it is served.
var statItems = [...]struct{ kind, field uint8 }{
	3: {kU32, sPPID}, 4: {kU32, sPgrp}, 5: {kU32, sSession}, 6: {kU32, sTTY}, 8: {kU32, sFlags},
	9: {kU32, sMinflt}, 10: {kU32, sCminflt}, 11: {kU32, sMajflt}, 12: {kU32, sCmajflt},
	13: {kMS, sUtime}, 14: {kMS, sStime}, 15: {kMS, sCutime}, 16: {kMS, sCstime},
	17: {kI32, sPriority}, 18: {kI32, sNice}, 20: {kU32, sItReal}, 21: {kMS, sStartTime},
	22: {kKB, sVsize}, 23: {kPageKB, sRSS}, 24: {kKB, sRSSRlim},
	25: {kU32, sStartCode}, 26: {kU32, sEndCode}, 27: {kU32, sStartStack}, 28: {kU32, sESP},
	29: {kU32, sEIP}, 30: {kU32, sSignal}, 31: {kU32, sBlocked}, 32: {kU32, sSigignore},
	33: {kU32, sSigcatch}, 34: {kU64, sWchan}, 35: {kU32, sNswap}, 36: {kU32, sCnswap},
	37: {kU32, sExitSignal}, 38: {kU32, sProcessor}, 42: {kU32, sRTPriority}, 43: {kU32, sPolicy},
	44: {kMS, sDelayacct}, 45: {kMS, sGuest}, 46: {kMS, sCguest},
}

// statNumber is a numeric item of the stat cluster.
func (p *Proc) statNumber(s *statData, item uint32, a *pcp.Atom) int32 {
	if item >= uint32(len(statItems)) || statItems[item].kind == 0 {
		return int32(pcp.ErrPMID)
	}
	it := statItems[item]
	v := s.v[it.field]
	switch it.kind {
	case kU32:
		a.UL = uint32(v)
	case kI32:
		a.L = int32(v)
	case kU64:
		a.ULL = v
	case kMS:
		a.ULL = v * 1000 / p.hz
	case kKB:
		a.ULL = v / 1024
	case kPageKB:
		a.ULL = v * p.pageSize / 1024
	}
	return haveValue
}

// policyName is the scheduling policy's short name as PCP's agent
// gives it.
func policyName(policy uint32) string {
	switch policy {
	case 0:
		return "NORMAL"
	case 1:
		return "FIFO"
	case 2:
		return "RR"
	case 3:
		return "BATCH"
	case 5:
		return "IDLE"
	case 6:
		return "DEADLN"
	}
	return "?"
}

// How a status item is served from statusData.
const (
	kNum        = iota + 1 // the number u[idx]
	kUser                  // the user name of u[idx]
	kGroup                 // the group name of u[idx]
	kStr                   // the string s[idx]
	kRSSSwap               // VmRSS + VmSwap
	kRSSSwapLib            // VmRSS + VmSwap - VmLib, at least 0
)

// statusItems maps each item of the status cluster (proc.id.*,
// proc.psinfo.* from status, proc.memory.vm*, ...) to its kind, its
// field and the has* bit a kernel may lack (PM_ERR_APPVERSION then).
var statusItems = [...]struct {
	kind, idx uint8
	need      uint32
}{
	0: {kNum, stUID, 0}, 1: {kNum, stEUID, 0}, 2: {kNum, stSUID, 0}, 3: {kNum, stFSUID, 0},
	4: {kNum, stUID, 0}, // PCP 6.0.3's agent serves the real user id as proc.id.gid
	5: {kNum, stEGID, 0}, 6: {kNum, stSGID, 0}, 7: {kNum, stFSGID, 0},
	8: {kUser, stUID, 0}, 9: {kUser, stEUID, 0}, 10: {kUser, stSUID, 0}, 11: {kUser, stFSUID, 0},
	12: {kGroup, stGID, 0}, 13: {kGroup, stEGID, 0}, 14: {kGroup, stSGID, 0}, 15: {kGroup, stFSGID, 0},
	16: {kStr, ssSigPnd, 0}, 17: {kStr, ssSigBlk, 0}, 18: {kStr, ssSigIgn, 0}, 19: {kStr, ssSigCgt, 0},
	20: {kNum, stVmSize, 0}, 21: {kNum, stVmLck, 0}, 22: {kNum, stVmRSS, 0}, 23: {kNum, stVmData, 0},
	24: {kNum, stVmStk, 0}, 25: {kNum, stVmExe, 0}, 26: {kNum, stVmLib, 0}, 27: {kNum, stVmSwap, 0},
	28: {kNum, stThreads, 0}, 29: {kNum, stVctxsw, 0}, 30: {kNum, stNvctxsw, 0},
	31: {kStr, ssCpusAllowed, hasCpusAllowed}, 32: {kNum, stNgid, hasNgid},
	33: {kNum, stVmPeak, 0}, 34: {kNum, stVmPin, 0}, 35: {kNum, stVmHWM, 0}, 36: {kNum, stVmPTE, 0},
	37: {kStr, ssNStgid, hasNStgid}, 38: {kStr, ssNSpid, hasNSpid}, 39: {kStr, ssNSpgid, hasNSpgid},
	40: {kStr, ssNSsid, hasNSsid}, 41: {kNum, stTgid, hasTgid}, 42: {kNum, stEnvID, hasEnvID},
	43: {kind: kRSSSwap}, 44: {kind: kRSSSwapLib},
}

// statusValue is one metric of the status cluster.
func (p *Proc) statusValue(s *statusData, item uint32, a *pcp.Atom) int32 {
	if item >= uint32(len(statusItems)) || statusItems[item].kind == 0 {
		return int32(pcp.ErrPMID)
	}
	it := statusItems[item]
	if it.need != 0 && s.has&it.need == 0 {
		return int32(pcp.ErrAppVersion)
	}
	switch it.kind {
	case kNum:
		a.UL = s.u[it.idx]
	case kUser:
		a.CP = p.userName(s.u[it.idx])
	case kGroup:
		a.CP = p.groupName(s.u[it.idx])
	case kStr:
		a.CP = s.s[it.idx]
	case kRSSSwap, kRSSSwapLib:
		v := uint64(s.u[stVmRSS]) + uint64(s.u[stVmSwap])
		if it.kind == kRSSSwapLib {
			v -= min(v, uint64(s.u[stVmLib]))
		}
		a.ULL = v
	}
	return haveValue
}
