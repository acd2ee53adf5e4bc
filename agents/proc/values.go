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

// hotTwin maps a hotproc.* cluster to its proc.* twin.
var hotTwin = map[uint32]uint32{52: cStat, 53: cStatm, 54: cCgroup, 55: cLabel, 56: cStatus, 57: cSchedstat,
	58: cIO, 34: cSmaps, 59: cFD, 63: cOOM, 71: cExe, 73: cCwd, 75: cAutogroup}

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
	ms := func(ticks uint64) uint64 { return ticks * 1000 / p.hz }
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
			a.CP = string(rune(s.state))
			if s.state == 0 {
				a.CP = ""
			} else if s.state < 0x80 {
				a.CP = stateNames[s.state]
			}
		case 7:
			if int32(s.v[sTTYPgrp]) < 0 {
				return noValue
			}
			a.UL = uint32(s.v[sTTYPgrp])
		case 13:
			a.ULL = ms(s.v[sUtime])
		case 14:
			a.ULL = ms(s.v[sStime])
		case 15:
			a.ULL = ms(s.v[sCutime])
		case 16:
			a.ULL = ms(s.v[sCstime])
		case 17:
			a.L = int32(s.v[sPriority])
		case 18:
			a.L = int32(s.v[sNice])
		case 21:
			a.ULL = ms(s.v[sStartTime])
		case 22:
			a.ULL = s.v[sVsize] / 1024
		case 23:
			a.ULL = s.v[sRSS] * p.pageSize / 1024
		case 24:
			a.ULL = s.v[sRSSRlim] / 1024
		case 34:
			a.ULL = s.v[sWchan]
		case 39:
			a.CP = p.ttyName(uint32(s.v[sTTY]))
		case 44:
			a.ULL = ms(s.v[sDelayacct])
		case 45:
			a.ULL = ms(s.v[sGuest])
		case 46:
			a.ULL = ms(s.v[sCguest])
		case 48:
			a.CP = policyName(uint32(s.v[sPolicy]))
		default:
			f, ok := statU32[item]
			if !ok {
				return int32(pcp.ErrPMID)
			}
			a.UL = uint32(s.v[f])
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

// statU32 are the stat items served as the field itself in 32 bits.
var statU32 = map[uint32]int{3: sPPID, 4: sPgrp, 5: sSession, 6: sTTY, 8: sFlags, 9: sMinflt,
	10: sCminflt, 11: sMajflt, 12: sCmajflt, 20: sItReal, 25: sStartCode, 26: sEndCode,
	27: sStartStack, 28: sESP, 29: sEIP, 30: sSignal, 31: sBlocked, 32: sSigignore,
	33: sSigcatch, 35: sNswap, 36: sCnswap, 37: sExitSignal, 38: sProcessor,
	42: sRTPriority, 43: sPolicy}

// stateNames holds each one-character state as a string, so that
// serving proc.psinfo.sname allocates nothing.
var stateNames = func() (t [128]string) {
	for i := range t {
		t[i] = string(rune(i))
	}
	return
}()

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

// statusValue is one metric of the status cluster.
func (p *Proc) statusValue(s *statusData, item uint32, a *pcp.Atom) int32 {
	need := func(bit uint32) bool { return s.has&bit != 0 }
	switch item {
	case 0:
		a.UL = s.uid
	case 1:
		a.UL = s.euid
	case 2:
		a.UL = s.suid
	case 3:
		a.UL = s.fsuid
	case 4:
		// PCP 6.0.3's agent serves the real user id as proc.id.gid.
		a.UL = s.uid
	case 5:
		a.UL = s.egid
	case 6:
		a.UL = s.sgid
	case 7:
		a.UL = s.fsgid
	case 8:
		a.CP = p.userName(s.uid)
	case 9:
		a.CP = p.userName(s.euid)
	case 10:
		a.CP = p.userName(s.suid)
	case 11:
		a.CP = p.userName(s.fsuid)
	case 12:
		a.CP = p.groupName(s.gid)
	case 13:
		a.CP = p.groupName(s.egid)
	case 14:
		a.CP = p.groupName(s.sgid)
	case 15:
		a.CP = p.groupName(s.fsgid)
	case 16:
		a.CP = s.sigpnd
	case 17:
		a.CP = s.sigblk
	case 18:
		a.CP = s.sigign
	case 19:
		a.CP = s.sigcgt
	case 20:
		a.UL = s.vmsize
	case 21:
		a.UL = s.vmlck
	case 22:
		a.UL = s.vmrss
	case 23:
		a.UL = s.vmdata
	case 24:
		a.UL = s.vmstk
	case 25:
		a.UL = s.vmexe
	case 26:
		a.UL = s.vmlib
	case 27:
		a.UL = s.vmswap
	case 28:
		a.UL = s.threads
	case 29:
		a.UL = s.vctxsw
	case 30:
		a.UL = s.nvctxsw
	case 31:
		if !need(hasCpusAllowed) {
			return int32(pcp.ErrAppVersion)
		}
		a.CP = s.cpusallowed
	case 32:
		if !need(hasNgid) {
			return int32(pcp.ErrAppVersion)
		}
		a.UL = s.ngid
	case 33:
		a.UL = s.vmpeak
	case 34:
		a.UL = s.vmpin
	case 35:
		a.UL = s.vmhwm
	case 36:
		a.UL = s.vmpte
	case 37:
		if !need(hasNStgid) {
			return int32(pcp.ErrAppVersion)
		}
		a.CP = s.nstgid
	case 38:
		if !need(hasNSpid) {
			return int32(pcp.ErrAppVersion)
		}
		a.CP = s.nspid
	case 39:
		if !need(hasNSpgid) {
			return int32(pcp.ErrAppVersion)
		}
		a.CP = s.nspgid
	case 40:
		if !need(hasNSsid) {
			return int32(pcp.ErrAppVersion)
		}
		a.CP = s.nssid
	case 41:
		if !need(hasTgid) {
			return int32(pcp.ErrAppVersion)
		}
		a.UL = s.tgid
	case 42:
		if !need(hasEnvID) {
			return int32(pcp.ErrAppVersion)
		}
		a.UL = s.envid
	case 43:
		a.ULL = uint64(s.vmrss) + uint64(s.vmswap)
	case 44:
		v := uint64(s.vmrss) + uint64(s.vmswap)
		if v >= uint64(s.vmlib) {
			v -= uint64(s.vmlib)
		} else {
			v = 0
		}
		a.ULL = v
	default:
		return int32(pcp.ErrPMID)
	}
	return haveValue
}
