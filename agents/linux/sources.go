package linux

// source is one file or group of files a refresh reads; metrics name the
// source they need, and a fetch reads each needed source once.
type source uint

const (
	srcStat source = iota
	srcMeminfo
	srcLoadavg
	srcUptime
	srcVmstat
	srcDiskstats
	srcNetDev
	srcNetAddr
	srcSnmp
	srcSnmp6
	srcSockstat
	srcSoftnet
	srcFilesys
	srcSwaps
	srcCPUInfo
	srcUname
	srcPressure
	srcSoftirqs
	srcInterrupts
	srcSysKernel
	srcBuddyinfo
	srcKSM
	srcNodes
	srcZoneinfo
	srcNUMA
	srcSlabinfo
	srcHardware
	srcIPC
	srcVFS
	srcLogin
	srcNFS
	srcSCSI
	srcTTY
	srcTape
	srcConns // TCP
	srcUDPConns
	srcRawConns
	srcUnixConns
	srcLocks
	srcUevent
	srcTmpfs
	srcFCHost
	srcNFSD
	srcPartitions
	srcExtfrag
	srcStatic
	numSources
)

// A refresh collects the sources it needs in a uint64's bits.
var _ [64 - numSources]struct{}

// bindAll binds every metric family.
func (x *Linux) bindAll() {
	x.sources[srcStatic] = func() error { return nil }
	x.bindStat()
	x.bindMeminfo()
	x.bindLoadavg()
	x.bindUptime()
	x.bindVmstat()
	x.bindDisks()
	x.bindNetDev()
	x.bindNetAddr()
	x.bindSnmp()
	x.bindSnmp6()
	x.bindSockstat()
	x.bindSoftnet()
	x.bindFilesys()
	x.bindSwaps()
	x.bindCPUInfo()
	x.bindUname()
	x.bindPressure()
	x.bindSoftirqs()
	x.bindInterrupts()
	x.bindSysKernel()
	x.bindBuddyinfo()
	x.bindKSM()
	x.bindNodes()
	x.bindZoneinfo()
	x.bindNUMA()
	x.bindSlabinfo()
	x.bindHardware()
	x.bindBandwidth()
	x.bindIPC()
	x.bindMore()
}
