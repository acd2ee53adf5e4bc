package linux

import "strings"

// The SNMP phrase tables say what each counter of /proc/net/snmp,
// /proc/net/netstat and /proc/net/snmp6 counts, for the one-line help.
// A %s stands for the protocol (IPv4, UDP-Lite over IPv6, ...), so one
// phrase serves the tables several protocols share.

var ipPhrase map[string]string

func makeIpPhrase() map[string]string {
	return map[string]string{
		"cepkts":           "%s packets received with congestion experienced (ECN CE)",
		"incepkts":         "%s packets received with congestion experienced (ECN CE)",
		"csumerrors":       "%s packets received with a bad header checksum",
		"defaultttl":       "the default time-to-live of %s packets sent",
		"ect0pkts":         "%s packets received marked ECN-capable (ECT(0))",
		"inect0pkts":       "%s packets received marked ECN-capable (ECT(0))",
		"ect1pkts":         "%s packets received marked ECN-capable (ECT(1))",
		"inect1pkts":       "%s packets received marked ECN-capable (ECT(1))",
		"noectpkts":        "%s packets received not ECN-capable",
		"innoectpkts":      "%s packets received not ECN-capable",
		"forwarding":       "whether the host forwards %s packets (1 router, 2 host)",
		"forwdatagrams":    "%s packets forwarded to another host",
		"outforwdatagrams": "%s packets forwarded to another host",
		"fragcreates":      "%s fragments made by fragmenting outgoing packets",
		"fragfails":        "outgoing %s packets dropped because they could not be fragmented",
		"fragoks":          "outgoing %s packets fragmented successfully",
		"inaddrerrors":     "%s packets received with an address not valid for this host",
		"inbcastoctets":    "bytes of %s broadcast packets received",
		"inbcastpkts":      "%s broadcast packets received",
		"indelivers":       "%s packets delivered to upper-layer protocols",
		"indiscards":       "received %s packets dropped for lack of resources",
		"inhdrerrors":      "%s packets received with header errors",
		"inmcastoctets":    "bytes of %s multicast packets received",
		"inmcastpkts":      "%s multicast packets received",
		"innoroutes":       "%s packets received with no route to forward them",
		"inoctets":         "bytes of %s packets received",
		"inreceives":       "%s packets received from interfaces, erroneous ones included",
		"intoobigerrors":   "%s packets received too big to forward",
		"intruncatedpkts":  "%s packets received shorter than their headers said",
		"inunknownprotos":  "%s packets received for a protocol the host does not handle",
		"outbcastoctets":   "bytes of %s broadcast packets sent",
		"outbcastpkts":     "%s broadcast packets sent",
		"outdiscards":      "outgoing %s packets dropped for lack of resources",
		"outmcastoctets":   "bytes of %s multicast packets sent",
		"outmcastpkts":     "%s multicast packets sent",
		"outnoroutes":      "outgoing %s packets dropped for want of a route",
		"outoctets":        "bytes of %s packets sent",
		"outrequests":      "%s packets handed down by upper-layer protocols to send",
		"reasmfails":       "%s reassemblies of fragments that failed",
		"reasmoks":         "%s packets reassembled from fragments",
		"reasmoverlaps":    "%s fragments dropped for overlapping others",
		"reasmreqds":       "%s fragments received needing reassembly",
		"reasmtimeout":     "%s reassemblies abandoned after a timeout",
	}
}

var icmpPhrase map[string]string

func makeIcmpPhrase() map[string]string {
	return map[string]string{
		"inaddrmaskreps":            "%s address mask replies received",
		"inaddrmasks":               "%s address mask requests received",
		"incsumerrors":              "%s messages received with a bad checksum",
		"indestunreachs":            "%s destination unreachable messages received",
		"inechoreps":                "%s echo replies received",
		"inechoreplies":             "%s echo replies received",
		"inechos":                   "%s echo requests received",
		"inerrors":                  "%s messages received with errors",
		"ingroupmembqueries":        "%s multicast listener queries received",
		"ingroupmembreductions":     "%s multicast listener done messages received",
		"ingroupmembresponses":      "%s multicast listener reports received",
		"inmldv2reports":            "%s MLDv2 listener reports received",
		"inmsgs":                    "%s messages received",
		"inneighboradvertisements":  "%s neighbour advertisements received",
		"inneighborsolicits":        "%s neighbour solicitations received",
		"inparmprobs":               "%s parameter problem messages received",
		"inparmproblems":            "%s parameter problem messages received",
		"inpkttoobigs":              "%s packet too big messages received",
		"inredirects":               "%s redirect messages received",
		"inrouteradvertisements":    "%s router advertisements received",
		"inroutersolicits":          "%s router solicitations received",
		"insrcquenchs":              "%s source quench messages received",
		"intimeexcds":               "%s time exceeded messages received",
		"intimestampreps":           "%s timestamp replies received",
		"intimestamps":              "%s timestamp requests received",
		"outaddrmaskreps":           "%s address mask replies sent",
		"outaddrmasks":              "%s address mask requests sent",
		"outdestunreachs":           "%s destination unreachable messages sent",
		"outechoreps":               "%s echo replies sent",
		"outechoreplies":            "%s echo replies sent",
		"outechos":                  "%s echo requests sent",
		"outerrors":                 "%s messages not sent because of errors",
		"outgroupmembqueries":       "%s multicast listener queries sent",
		"outgroupmembreductions":    "%s multicast listener done messages sent",
		"outgroupmembresponses":     "%s multicast listener reports sent",
		"outmldv2reports":           "%s MLDv2 listener reports sent",
		"outmsgs":                   "%s messages sent",
		"outneighboradvertisements": "%s neighbour advertisements sent",
		"outneighborsolicits":       "%s neighbour solicitations sent",
		"outparmprobs":              "%s parameter problem messages sent",
		"outparmproblems":           "%s parameter problem messages sent",
		"outpkttoobigs":             "%s packet too big messages sent",
		"outredirects":              "%s redirect messages sent",
		"outrouteradvertisements":   "%s router advertisements sent",
		"outroutersolicits":         "%s router solicitations sent",
		"outsrcquenchs":             "%s source quench messages sent",
		"outtimeexcds":              "%s time exceeded messages sent",
		"outtimestampreps":          "%s timestamp replies sent",
		"outtimestamps":             "%s timestamp requests sent",
	}
}

var udpPhrase map[string]string

func makeUdpPhrase() map[string]string {
	return map[string]string{
		"ignoredmulti":  "%s multicast datagrams received that no socket wanted",
		"incsumerrors":  "%s datagrams received with a bad checksum",
		"indatagrams":   "%s datagrams delivered to sockets",
		"inerrors":      "%s datagrams received that could not be delivered, for reasons other than no port",
		"memerrors":     "%s datagrams dropped for lack of socket memory",
		"noports":       "%s datagrams received for a port no socket listens on",
		"outdatagrams":  "%s datagrams sent",
		"recvbuferrors": "%s datagrams dropped because the receive buffer was full",
		"rcvbuferrors":  "%s datagrams dropped because the receive buffer was full",
		"sndbuferrors":  "%s datagrams not sent because the send buffer was full",
	}
}

var tcpPhrase map[string]string

func makeTcpPhrase() map[string]string {
	return map[string]string{
		"abortfailed":              "TCP resets that could not be sent, memory being short",
		"abortonclose":             "TCP connections reset because the application closed with unread data",
		"abortondata":              "TCP connections reset because data arrived after the application closed",
		"abortonlinger":            "TCP connections reset when the linger timeout expired on close",
		"abortonmemory":            "TCP connections reset because orphaned sockets used too much memory",
		"abortontimeout":           "TCP connections reset after retransmission or keepalive timeouts",
		"activeopens":              "TCP connections opened by this host (SYN sent)",
		"arpfilter":                "ARP packets dropped by the ARP filter",
		"attemptfails":             "TCP connection attempts that failed",
		"autocorking":              "TCP sends held back by automatic corking",
		"backlogdrop":              "TCP packets dropped because the socket backlog was full",
		"busypollrxpackets":        "TCP packets received by busy polling",
		"challengeack":             "TCP challenge ACKs sent",
		"currestab":                "TCP connections now established or closing-wait",
		"deferacceptdrop":          "TCP connections dropped while waiting for data (TCP_DEFER_ACCEPT)",
		"delayedacklocked":         "TCP delayed ACKs postponed because the socket was locked",
		"delayedacklost":           "TCP delayed ACKs lost (duplicate data seen)",
		"delayedacks":              "TCP delayed ACKs sent",
		"directcopyfrombacklog":    "bytes copied to user space straight from the TCP backlog (older kernels)",
		"directcopyfromprequeue":   "bytes copied to user space straight from the TCP prequeue (older kernels)",
		"dsackignorednoundo":       "TCP D-SACKs ignored, there being no retransmission to undo",
		"dsackignoredold":          "TCP D-SACKs ignored as too old",
		"dsackoforecv":             "TCP D-SACKs received for out-of-order data",
		"dsackofosent":             "TCP D-SACKs sent for out-of-order data",
		"dsackoldsent":             "TCP D-SACKs sent for old duplicate data",
		"dsackrecv":                "TCP D-SACKs received",
		"dsackundo":                "TCP congestion window reductions undone after a D-SACK",
		"embryonicrsts":            "TCP resets received for connections still in SYN_RECV",
		"estabresets":              "TCP connections reset from established or closing-wait",
		"fackreorder":              "TCP reorderings detected by forward acknowledgement",
		"fastopenactive":           "TCP Fast Open connections this host opened with data in the SYN",
		"fastopenactivefail":       "TCP Fast Open attempts by this host that fell back",
		"fastopencookiereqd":       "TCP Fast Open cookie requests received",
		"fastopenlistenoverflow":   "TCP Fast Open requests refused, the pending queue being full",
		"fastopenpassive":          "TCP Fast Open connections accepted with data in the SYN",
		"fastopenpassivefail":      "TCP Fast Open connections accepted that failed",
		"fastretrans":              "TCP segments retransmitted by fast retransmit",
		"forwardretrans":           "TCP segments retransmitted ahead of loss detection (older kernels)",
		"fromzerowindowadv":        "TCP windows advertised again after a zero window",
		"fullundo":                 "TCP congestion window reductions fully undone",
		"hpacks":                   "TCP pure ACKs taken by the header prediction fast path",
		"hphits":                   "TCP data segments taken by the header prediction fast path",
		"hphitstouser":             "TCP fast-path segments copied straight to user space (older kernels)",
		"incsumerrors":             "TCP segments received with a bad checksum",
		"inerrs":                   "TCP segments received in error",
		"insegs":                   "TCP segments received, erroneous ones included",
		"iprpfilter":               "packets dropped by the reverse path filter",
		"listendrops":              "TCP connection requests dropped by listening sockets",
		"listenoverflows":          "TCP connection requests dropped because the accept queue was full",
		"lockdroppedicmps":         "ICMP messages for TCP dropped because the socket was locked",
		"lossfailures":             "TCP loss recoveries that ended in a timeout",
		"lossproberecovery":        "TCP losses repaired by a tail loss probe",
		"lossprobes":               "TCP tail loss probes sent",
		"lossundo":                 "TCP congestion window reductions undone after a timeout",
		"lostretransmit":           "TCP retransmissions found lost again",
		"maxconn":                  "the limit on TCP connections (-1, none)",
		"md5notfound":              "TCP segments dropped, expected MD5 signatures being absent",
		"md5unexpected":            "TCP segments dropped for carrying an unexpected MD5 signature",
		"memorypressures":          "times TCP entered memory pressure",
		"minttldrop":               "TCP segments dropped for a TTL below the socket's minimum",
		"ofodrop":                  "TCP out-of-order segments dropped for lack of memory",
		"ofomerge":                 "TCP out-of-order segments merged into queued ones",
		"ofopruned":                "times the TCP out-of-order queue was pruned",
		"ofoqueue":                 "TCP segments put on the out-of-order queue",
		"origdatasent":             "TCP data segments sent for the first time",
		"outofwindowicmps":         "ICMP messages for TCP dropped as outside the window",
		"outrsts":                  "TCP segments sent with the RST flag",
		"outsegs":                  "TCP segments sent, retransmissions excluded",
		"partialundo":              "TCP congestion window reductions partly undone",
		"passiveopens":             "TCP connections accepted (SYN received)",
		"pawsactiverejected":       "TCP SYN-ACKs rejected by timestamp checks (PAWS)",
		"pawsestabrejected":        "TCP segments on established connections rejected by timestamp checks (PAWS)",
		"pawspassiverejected":      "TCP SYNs rejected by timestamp checks (PAWS, older kernels)",
		"pfmemallocdrop":           "TCP segments dropped that needed emergency memory reserves",
		"prequeued":                "TCP segments put on the prequeue (older kernels)",
		"prequeueddropped":         "TCP segments dropped from the prequeue (older kernels)",
		"prunecalled":              "times TCP pruned a receive queue, memory being short",
		"pureacks":                 "TCP pure ACKs received on the slow path",
		"rcvcoalesce":              "TCP segments merged into the receive queue",
		"rcvcollapsed":             "TCP segments collapsed to save receive memory",
		"rcvpruned":                "TCP segments dropped from a receive queue, memory being short",
		"renofailures":             "TCP Reno recoveries that ended in a timeout",
		"renorecovery":             "TCP Reno fast recoveries",
		"renorecoveryfail":         "TCP Reno fast recoveries that failed",
		"renoreorder":              "TCP reorderings detected by Reno",
		"reqqfulldocookies":        "TCP SYN cookies sent because the request queue was full",
		"reqqfulldrop":             "TCP SYNs dropped because the request queue was full",
		"retransfail":              "TCP retransmissions that could not be sent",
		"retranssegs":              "TCP segments retransmitted",
		"rtoalgorithm":             "the TCP retransmission timeout algorithm (1 other, 2 constant, 3 RSRE, 4 Van Jacobson)",
		"rtomax":                   "the longest TCP retransmission timeout, in milliseconds",
		"rtomin":                   "the shortest TCP retransmission timeout, in milliseconds",
		"sackdiscard":              "TCP SACK blocks discarded as invalid",
		"sackfailures":             "TCP SACK recoveries that ended in a timeout",
		"sackmerged":               "TCP SACKed segments merged into others",
		"sackrecovery":             "TCP SACK-based fast recoveries",
		"sackrecoveryfail":         "TCP SACK-based fast recoveries that failed",
		"sackreneging":             "times a TCP peer withdrew SACKed data",
		"sackreorder":              "TCP reorderings detected by SACK",
		"sackshifted":              "TCP SACKed segments shifted into others",
		"sackshiftfallback":        "TCP SACKs that could not be shifted",
		"schedulerfail":            "TCP scheduler failures (older kernels)",
		"slowstartretrans":         "TCP retransmissions in slow start",
		"spuriousrtos":             "TCP retransmission timeouts found to be spurious",
		"spuriousrtxhostqueues":    "TCP retransmissions skipped, the original still queued in the host",
		"synchallenge":             "TCP challenge ACKs sent in answer to SYNs",
		"syncookiesfailed":         "TCP SYN cookies received that were invalid",
		"syncookiesrecv":           "TCP SYN cookies received back valid",
		"syncookiessent":           "TCP SYN cookies sent",
		"synretrans":               "TCP SYN and SYN-ACK retransmissions",
		"tcpackcompressed":         "TCP ACKs compressed into others",
		"tcpackskippedchallenge":   "TCP challenge ACKs not sent, rate limited",
		"tcpackskippedfinwait2":    "TCP ACKs not sent in FIN_WAIT2, rate limited",
		"tcpackskippedpaws":        "TCP ACKs not sent after timestamp checks, rate limited",
		"tcpackskippedseq":         "TCP ACKs not sent for out-of-window sequence numbers, rate limited",
		"tcpackskippedsynrecv":     "TCP ACKs not sent in SYN_RECV, rate limited",
		"tcpackskippedtimewait":    "TCP ACKs not sent in TIME_WAIT, rate limited",
		"tcpbacklogcoalesce":       "TCP segments merged in the socket backlog",
		"tcpdelivered":             "TCP data segments the peer acknowledged",
		"tcpdeliveredce":           "TCP data segments acknowledged with congestion experienced",
		"tcpdsackignoreddubious":   "TCP D-SACKs ignored as dubious",
		"tcpdsackrecvsegs":         "TCP segments reported in D-SACKs received",
		"tcpduplicatedatarehash":   "TCP flow hash changes after duplicate data",
		"tcpfastopenactivefail":    "TCP Fast Open SYNs with data that the peer did not acknowledge",
		"tcpfastopenblackhole":     "times TCP Fast Open was disabled after a suspected black hole",
		"tcpfastopenpassivealtkey": "TCP Fast Open cookies accepted with the alternate key",
		"tcphystartdelaycwnd":      "sum of TCP congestion windows at which HyStart's delay test exited slow start",
		"tcphystartdelaydetect":    "TCP slow starts ended by HyStart's delay test",
		"tcphystarttraincwnd":      "sum of TCP congestion windows at which HyStart's ACK-train test exited slow start",
		"tcphystarttraindetect":    "TCP slow starts ended by HyStart's ACK-train test",
		"tcpkeepalive":             "TCP keepalive probes sent",
		"tcploss":                  "TCP losses detected (older kernels)",
		"tcpmd5failure":            "TCP segments dropped for a bad MD5 signature",
		"tcpmemorypressureschrono": "milliseconds TCP spent under memory pressure",
		"tcpmigratereqfailure":     "TCP requests that could not move to another listener",
		"tcpmigratereqsuccess":     "TCP requests moved to another listener",
		"tcpmtupfail":              "TCP path MTU probes that failed",
		"tcpmtupsuccess":           "TCP path MTU probes that succeeded",
		"tcprcvqdrop":              "TCP segments dropped, the receive queue being full",
		"tcptimeoutrehash":         "TCP flow hash changes after a retransmission timeout",
		"tcpwinprobe":              "TCP zero-window probes sent",
		"tcpwqueuetoobig":          "TCP sends refused because the write queue was too long",
		"tcpzerowindowdrop":        "TCP segments dropped because the window was zero",
		"timeouts":                 "TCP retransmission timeouts",
		"timewaited":               "TCP connections that ended TIME_WAIT normally",
		"timewaitkilled":           "TCP TIME_WAIT connections ended early",
		"timewaitoverflow":         "TCP connections that skipped TIME_WAIT, the table being full",
		"timewaitrecycled":         "TCP TIME_WAIT connections recycled (older kernels)",
		"tozerowindowadv":          "TCP zero windows advertised",
		"tsreorder":                "TCP reorderings detected by timestamps",
		"wantzerowindowadv":        "TCP zero windows wanted but not advertised",
	}
}

var mptcpPhrase map[string]string

func makeMptcpPhrase() map[string]string {
	return map[string]string{
		"addaddr":                 "MPTCP ADD_ADDR options received",
		"addaddrdrop":             "MPTCP ADD_ADDR options dropped",
		"datacsumerr":             "MPTCP data checksum errors",
		"dssnomatchtcp":           "MPTCP DSS mappings that did not match the TCP sequence",
		"dssnotmatching":          "MPTCP DSS mappings that did not match earlier ones",
		"duplicatedata":           "MPTCP duplicate data received on a subflow",
		"echoadd":                 "MPTCP ADD_ADDR echoes received",
		"infinitemaprx":           "MPTCP infinite mappings received",
		"infinitemaptx":           "MPTCP infinite mappings sent",
		"mismatchportackrx":       "MPTCP join ACKs received on a mismatched port",
		"mismatchportsynrx":       "MPTCP join SYNs received on a mismatched port",
		"mpcapableackrx":          "MPTCP MP_CAPABLE third ACKs received",
		"mpcapablefallbackack":    "MPTCP connections that fell back to TCP at the third ACK",
		"mpcapablefallbacksynack": "MPTCP connections that fell back to TCP at the SYN-ACK",
		"mpcapablesynackrx":       "MPTCP MP_CAPABLE SYN-ACKs received",
		"mpcapablesynrx":          "MPTCP MP_CAPABLE SYNs received",
		"mpcapablesyntx":          "MPTCP MP_CAPABLE SYNs sent",
		"mpfailrx":                "MPTCP MP_FAIL options received",
		"mpfailtx":                "MPTCP MP_FAIL options sent",
		"mpfallbacktokeninit":     "MPTCP connections that fell back to TCP, no token being free",
		"mpfastcloserx":           "MPTCP MP_FASTCLOSE options received",
		"mpfastclosetx":           "MPTCP MP_FASTCLOSE options sent",
		"mpjoinackhmacfailure":    "MPTCP join ACKs rejected for a bad HMAC",
		"mpjoinackrx":             "MPTCP MP_JOIN third ACKs received",
		"mpjoinnotokenfound":      "MPTCP join SYNs for an unknown token",
		"mpjoinportackrx":         "MPTCP join ACKs received on a signalled port",
		"mpjoinportsynackrx":      "MPTCP join SYN-ACKs received on a signalled port",
		"mpjoinportsynrx":         "MPTCP join SYNs received on a signalled port",
		"mpjoinsynackhmacfailure": "MPTCP join SYN-ACKs rejected for a bad HMAC",
		"mpjoinsynackrx":          "MPTCP MP_JOIN SYN-ACKs received",
		"mpjoinsynrx":             "MPTCP MP_JOIN SYNs received",
		"mppriorx":                "MPTCP MP_PRIO options received",
		"mppriotx":                "MPTCP MP_PRIO options sent",
		"mprstrx":                 "MPTCP MP_RST options received",
		"mprsttx":                 "MPTCP MP_RST options sent",
		"mptcpretrans":            "MPTCP data retransmitted at the connection level",
		"nodssinwindow":           "MPTCP segments without a DSS option inside the window",
		"ofomerge":                "MPTCP out-of-order segments merged",
		"ofoqueue":                "MPTCP segments put on the out-of-order queue",
		"ofoqueuetail":            "MPTCP out-of-order segments added at the queue's tail",
		"portadd":                 "MPTCP ADD_ADDR options carrying a port received",
		"rcvpruned":               "MPTCP segments dropped, receive memory being short",
		"rcvwndconflict":          "MPTCP receive window conflicts between subflows",
		"rcvwndconflictupdate":    "MPTCP receive window conflicts resolved by update",
		"rcvwndshared":            "MPTCP receive windows shared across subflows",
		"rmaddr":                  "MPTCP RM_ADDR options received",
		"rmaddrdrop":              "MPTCP RM_ADDR options dropped",
		"rmsubflow":               "MPTCP subflows removed",
		"sndwndshared":            "MPTCP send windows shared across subflows",
		"subflowrecover":          "MPTCP subflows that recovered from stale",
		"subflowstale":            "MPTCP subflows marked stale",
	}
}

// snmpPhraseFor returns the phrase for a group's field and the protocol
// the group names, or false.
func snmpPhraseFor(group, field string) (string, string, bool) {
	var table map[string]string
	var proto string
	switch group {
	case "ip":
		table, proto = ipPhrase, "IPv4"
	case "ip6":
		table, proto = ipPhrase, "IPv6"
	case "icmp":
		table, proto = icmpPhrase, "ICMP"
	case "icmp6":
		table, proto = icmpPhrase, "ICMPv6"
	case "udp":
		table, proto = udpPhrase, "UDP"
	case "udp6":
		table, proto = udpPhrase, "UDP over IPv6"
	case "udplite":
		table, proto = udpPhrase, "UDP-Lite"
	case "udplite6":
		table, proto = udpPhrase, "UDP-Lite over IPv6"
	case "tcp":
		table, proto = tcpPhrase, "TCP"
	case "mptcp":
		table, proto = mptcpPhrase, "MPTCP"
	default:
		return "", "", false
	}
	p, ok := table[field]
	if !ok {
		return "", "", false
	}
	if strings.Contains(p, "%s") {
		p = strings.ReplaceAll(p, "%s", proto)
	}
	return p, proto, true
}
