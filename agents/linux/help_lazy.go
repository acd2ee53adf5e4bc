package linux

import "sync"

// helpOnce builds the help tables the first time help is asked for (when
// an agent is made), not at package init: every tool links this package
// for local contexts, and most runs never make a Linux agent.
var helpOnce sync.Once

// loadHelp makes the help tables, in the order package initialisation
// used to: the literals first, then the additions, later ones winning.
func loadHelp() {
	helpOnce.Do(func() {
		cpuModeText = makeCpuModeText()
		diskFieldText = makeDiskFieldText()
		netFieldText = makeNetFieldText()
		softnetText = makeSoftnetText()
		slabText = makeSlabText()
		ipPhrase = makeIpPhrase()
		icmpPhrase = makeIcmpPhrase()
		udpPhrase = makeUdpPhrase()
		tcpPhrase = makeTcpPhrase()
		mptcpPhrase = makeMptcpPhrase()
		metricHelp = makeMetricHelp()
		indomHelps = makeIndomHelps()
		moreHelp = makeMoreHelp()
		vmPhrase = makeVmPhrase()
		counters = makeCounters()
		families = makeFamilies()
		addFamilyHelp2()
		addMoreHelp()
		addNFSHelp()
		addHelp3()
	})
}
