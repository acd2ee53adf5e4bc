package pmcd

import (
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// pmcd's own agent (domain 2, pmcd.conf's "pmcd_init" DSO) serves pmcd.*
// from the daemon's state, with the names, PMIDs, types, semantics,
// units and instance domains of PCP's pmcd agent and help text of our
// own.

// The instance domains of pmcd's agent, by serial.
const (
	pmcdInDomLoggers  = 1 // running pmloggers, by pid
	pmcdInDomRegister = 2 // the 16 registers of pmcd.control.register
	pmcdInDomAgents   = 3 // pmcd.conf's agents, by domain
	pmcdInDomPmies    = 4 // running pmies, by pid
	pmcdInDomBufs     = 5 // PDU buffer sizes
	pmcdInDomClients  = 6 // connected clients, by sequence number
)

// pduNames are the suffixes of pmcd.pdu_in.* and pmcd.pdu_out.* by item;
// item 11 has none and item 16 is the total.
var pduNames = map[uint32]string{
	0: "error", 1: "result", 2: "profile", 3: "fetch", 4: "desc_req", 5: "desc",
	6: "instance_req", 7: "instance", 8: "text_req", 9: "text", 10: "control_req",
	12: "creds", 13: "pmns_ids", 14: "pmns_names", 15: "pmns_child", 16: "total",
	17: "pmns_traverse", 18: "auth", 19: "label_req", 20: "label",
	21: "highres_fetch", 22: "highres_result", 23: "desc_ids", 24: "descs",
}

// pduWords describe each counted PDU for help text.
var pduWords = map[uint32]string{
	0: "ERROR (status)", 1: "RESULT (values)", 2: "PROFILE (instance profile)",
	3: "FETCH", 4: "DESC_REQ (descriptor request)", 5: "DESC (descriptor)",
	6: "INSTANCE_REQ (instance request)", 7: "INSTANCE (instance answer)",
	8: "TEXT_REQ (help text request)", 9: "TEXT (help text)",
	10: "CONTROL_REQ (logger control)", 12: "CREDS (credentials)",
	13: "PMNS_IDS (names for PMIDs)", 14: "PMNS_NAMES (PMIDs for names)",
	15: "PMNS_CHILD (namespace children)", 17: "PMNS_TRAVERSE (namespace walk)",
	18: "ATTR (connection attribute)", 19: "LABEL_REQ (label request)",
	20: "LABEL (label sets)", 21: "HIGHRES_FETCH", 22: "HIGHRES_RESULT",
	23: "DESC_IDS (descriptors request)", 24: "DESCS (descriptors)",
}

// pmcdMetric is one row of the table below.
type pmcdMetric struct {
	name          string
	cluster, item uint32
	typ           pcp.Type
	indom         uint32 // serial, 0 for none
	sem           pcp.Sem
	units         pcp.Units
	oneLine, help string
}

var (
	noUnits   = pcp.Units{}
	countOne  = pcp.Units{DimCount: 1, ScaleCount: 0}
	kbyte     = pcp.Units{DimSpace: 1, ScaleSpace: pcp.SpaceKByte}
	msec      = pcp.Units{DimTime: 1, ScaleTime: pcp.TimeMSec}
	usecPerPU = pcp.Units{DimTime: 1, DimCount: -1, ScaleTime: pcp.TimeUSec, ScaleCount: 0}
	perSecond = pcp.Units{DimTime: -1, DimCount: 1, ScaleTime: pcp.TimeSec, ScaleCount: 0}
)

var pmcdMetrics = []pmcdMetric{
	{"pmcd.control.debug", 0, 0, pcp.Type32, 0, pcp.SemDiscrete, noUnits,
		"diagnostic debug flags of pmcd",
		"The debugging flags pmcd runs with, as a bit mask. Storing a value sets\nthe mask; it changes how much pmcd writes to its log."},
	{"pmcd.datasize", 0, 1, pcp.TypeU32, 0, pcp.SemInstant, kbyte,
		"memory pmcd uses for its data",
		"Kilobytes of heap memory in use by pmcd and the agents running inside\nit, an indication of how pmcd's memory footprint grows over time."},
	{"pmcd.numagents", 0, 2, pcp.TypeU32, 0, pcp.SemInstant, noUnits,
		"agents connected to pmcd",
		"How many of the agents in pmcd.conf are running and answering pmcd\nright now; agents that failed or were never started are not counted."},
	{"pmcd.numclients", 0, 3, pcp.TypeU32, 0, pcp.SemInstant, noUnits,
		"clients connected to pmcd",
		"How many client connections pmcd has at this moment, this one included."},
	{"pmcd.control.timeout", 0, 4, pcp.TypeU32, 0, pcp.SemDiscrete, noUnits,
		"seconds pmcd waits for an agent",
		"The time in seconds pmcd allows an agent to answer a request before it\ngives up on the agent and marks it dead (pmcd's -t option). Storing a\nvalue changes it while pmcd runs; 0 means wait forever."},
	{"pmcd.timezone", 0, 5, pcp.TypeString, 0, pcp.SemDiscrete, noUnits,
		"local time zone of the pmcd host",
		"The time zone of the host pmcd runs on, as a POSIX TZ string, so that\ntools such as pmlogger can record and show times in the host's local time."},
	{"pmcd.simabi", 0, 6, pcp.TypeString, 0, pcp.SemDiscrete, noUnits,
		"machine ABI of pmcd",
		"The executable format or machine architecture pmcd was built for, e.g.\nx86_64; agents loaded into pmcd must match it."},
	{"pmcd.version", 0, 7, pcp.TypeString, 0, pcp.SemDiscrete, noUnits,
		"PCP version of pmcd",
		"The version of Performance Co-Pilot whose protocol and behaviour this pmcd\nprovides."},
	{"pmcd.control.register", 0, 8, pcp.Type32, pmcdInDomRegister, pcp.SemDiscrete, noUnits,
		"general purpose registers",
		"Sixteen integers that clients may store into and fetch back, a simple\nshared notice board kept by pmcd; they start at zero."},
	{"pmcd.control.traceconn", 0, 9, pcp.Type32, 0, pcp.SemDiscrete, noUnits,
		"whether connections are traced",
		"1 when pmcd records connection events in its trace buffer (pmcd -T with\nbit 1), else 0. Storing 0 or 1 turns it off or on."},
	{"pmcd.control.tracepdu", 0, 10, pcp.Type32, 0, pcp.SemDiscrete, noUnits,
		"whether PDUs are traced",
		"1 when pmcd records PDU traffic in its trace buffer (pmcd -T with bit\n2), else 0. Storing 0 or 1 turns it off or on."},
	{"pmcd.control.tracebufs", 0, 11, pcp.Type32, 0, pcp.SemDiscrete, noUnits,
		"size of the trace buffer",
		"How many events pmcd's event trace buffer holds."},
	{"pmcd.control.dumptrace", 0, 12, pcp.Type32, 0, pcp.SemDiscrete, noUnits,
		"store to dump the trace buffer",
		"Always 0 when fetched. Storing any value asks pmcd to write its event\ntrace buffer to its log."},
	{"pmcd.control.dumpconn", 0, 13, pcp.Type32, 0, pcp.SemDiscrete, noUnits,
		"store to dump the connections",
		"Always 0 when fetched. Storing any value asks pmcd to write a list of its\nclient and agent connections to its log."},
	{"pmcd.control.tracenobuf", 0, 14, pcp.Type32, 0, pcp.SemDiscrete, noUnits,
		"whether tracing is unbuffered",
		"1 when traced events go straight to pmcd's log instead of the trace\nbuffer (pmcd -T with bit 256), else 0."},
	{"pmcd.control.sighup", 0, 15, pcp.Type32, 0, pcp.SemDiscrete, noUnits,
		"store to reconfigure pmcd",
		"Always 0 when fetched. Storing any value has pmcd do what it does on\nSIGHUP: read pmcd.conf and the namespace again if they changed and\nrestart agents that have died."},
	{"pmcd.services", 0, 16, pcp.TypeString, 0, pcp.SemInstant, noUnits,
		"PCP services running on the host",
		"A space separated list of the PCP daemons running on this host that\nclients may contact: always pmcd, and pmproxy when its pid file names a\nlive process."},
	{"pmcd.openfds", 0, 17, pcp.TypeU32, 0, pcp.SemInstant, noUnits,
		"highest open file descriptor of pmcd",
		"The largest file descriptor number pmcd has open, which grows with the\nnumber of clients and agents and so shows descriptor leaks."},
	{"pmcd.buf.alloc", 0, 18, pcp.Type32, pmcdInDomBufs, pcp.SemInstant, countOne,
		"PDU buffers allocated, by size",
		"How many buffers of each size class are held in a PDU buffer pool. This\npmcd encodes each PDU into a per-connection buffer and keeps no pool, so\nevery size class reports 0."},
	{"pmcd.buf.free", 0, 19, pcp.Type32, pmcdInDomBufs, pcp.SemInstant, countOne,
		"PDU buffers free, by size",
		"How many pooled PDU buffers of each size class are unused. This pmcd\nkeeps no pool, so every size class reports 0."},
	{"pmcd.build", 0, 20, pcp.TypeString, 0, pcp.SemDiscrete, noUnits,
		"build number of pmcd",
		"The build number of this version of pmcd, for telling apart builds of\none PCP version."},
	{"pmcd.hostname", 0, 21, pcp.TypeString, 0, pcp.SemDiscrete, noUnits,
		"name of the pmcd host",
		"The host name pmcd reports for itself: the name given with pmcd -H, else\nthe host's own name. pmlogger records it in archive labels."},
	{"pmcd.sighups", 0, 22, pcp.TypeU32, 0, pcp.SemCounter, countOne,
		"reconfigurations requested",
		"How many times pmcd has been asked to reconfigure, by SIGHUP or by a store\ninto pmcd.control.sighup."},
	{"pmcd.pid", 0, 23, pcp.TypeU64, 0, pcp.SemDiscrete, noUnits,
		"process id of pmcd",
		"The process identifier of the running pmcd."},
	{"pmcd.seqnum", 0, 24, pcp.TypeU32, 0, pcp.SemDiscrete, noUnits,
		"configuration sequence number",
		"A number pmcd increases each time its agents or namespace change (start,\nreconfiguration, restarted agents), so clients can tell that what they\nlearned earlier may be out of date."},
	{"pmcd.labels", 0, 25, pcp.TypeString, 0, pcp.SemInstant, noUnits,
		"context labels of this host",
		"The labels pmcd gives every client context, as one JSON object: the\nhost's name, domain name and machine id and the labels configured in\n$PCP_SYSCONF_DIR/labels."},
	{"pmcd.zoneinfo", 0, 26, pcp.TypeString, 0, pcp.SemDiscrete, noUnits,
		"time zone file of the pmcd host",
		"The host's time zone as the name of its zoneinfo file with a leading\ncolon, such as :Europe/Paris, or an empty string when it cannot be told."},
	{"pmcd.pmlogger.port", 3, 0, pcp.TypeU32, pmcdInDomLoggers, pcp.SemDiscrete, noUnits,
		"control port of each pmlogger",
		"For each pmlogger running on this host, the TCP port on which it accepts\npmlc connections; the instances are the loggers' process ids."},
	{"pmcd.pmlogger.pmcd_host", 3, 1, pcp.TypeString, pmcdInDomLoggers, pcp.SemDiscrete, noUnits,
		"host each pmlogger records",
		"For each pmlogger running on this host, the host whose pmcd it takes\nits values from."},
	{"pmcd.pmlogger.archive", 3, 2, pcp.TypeString, pmcdInDomLoggers, pcp.SemDiscrete, noUnits,
		"archive each pmlogger writes",
		"For each pmlogger running on this host, the base name of the archive it\nis writing."},
	{"pmcd.pmlogger.host", 3, 3, pcp.TypeString, pmcdInDomLoggers, pcp.SemDiscrete, noUnits,
		"host each pmlogger runs on",
		"For each pmlogger running on this host, the name of this host, where\nthe logger can be reached."},
	{"pmcd.agent.type", 4, 0, pcp.TypeU32, pmcdInDomAgents, pcp.SemDiscrete, noUnits,
		"how pmcd talks to each agent",
		"For each agent of pmcd.conf: 0 when it runs inside pmcd (dso), 2 when\npmcd reaches it on a socket, 4 when it talks on a pipe to its standard\ninput and output."},
	{"pmcd.agent.status", 4, 1, pcp.Type32, pmcdInDomAgents, pcp.SemDiscrete, noUnits,
		"state of each agent",
		"For each agent of pmcd.conf: 0 when it is running and answering, 1 when\nit has said it is busy, else why it stopped in its low byte (2 exited,\n4 never started, 8 protocol failure or no answer), with its exit status\nin the next byte and the signal that ended it in the byte after."},
	{"pmcd.agent.fenced", 4, 2, pcp.TypeU32, pmcdInDomAgents, pcp.SemInstant, noUnits,
		"whether each agent is fenced off",
		"For each agent of pmcd.conf, 1 when pmcd has been told to send it no\nrequests, else 0."},
	{"pmcd.agent.name", 4, 3, pcp.TypeString, pmcdInDomAgents, pcp.SemDiscrete, noUnits,
		"name of each agent",
		"For each agent of pmcd.conf, the name its line gives it."},
	{"pmcd.pmie.configfile", 5, 0, pcp.TypeString, pmcdInDomPmies, pcp.SemDiscrete, noUnits,
		"rules file of each pmie",
		"For each pmie inference engine running on this host, the file its rules\ncome from."},
	{"pmcd.pmie.logfile", 5, 1, pcp.TypeString, pmcdInDomPmies, pcp.SemDiscrete, noUnits,
		"log of each pmie",
		"For each pmie running on this host, the file it logs to."},
	{"pmcd.pmie.pmcd_host", 5, 2, pcp.TypeString, pmcdInDomPmies, pcp.SemDiscrete, noUnits,
		"default host of each pmie",
		"For each pmie running on this host, the host its rules are evaluated\nagainst unless a rule names another."},
	{"pmcd.pmie.numrules", 5, 3, pcp.TypeU32, pmcdInDomPmies, pcp.SemDiscrete, noUnits,
		"rules of each pmie",
		"For each pmie running on this host, how many rules it evaluates."},
	{"pmcd.pmie.actions", 5, 4, pcp.TypeU32, pmcdInDomPmies, pcp.SemCounter, countOne,
		"actions each pmie has taken",
		"For each pmie running on this host, how many times a rule's action has\nrun."},
	{"pmcd.pmie.eval.true", 5, 5, pcp.TypeU32, pmcdInDomPmies, pcp.SemCounter, countOne,
		"rule evaluations found true",
		"For each pmie running on this host, how many rule evaluations have come\nout true."},
	{"pmcd.pmie.eval.false", 5, 6, pcp.TypeU32, pmcdInDomPmies, pcp.SemCounter, countOne,
		"rule evaluations found false",
		"For each pmie running on this host, how many rule evaluations have come\nout false."},
	{"pmcd.pmie.eval.unknown", 5, 7, pcp.TypeU32, pmcdInDomPmies, pcp.SemCounter, countOne,
		"rule evaluations left undecided",
		"For each pmie running on this host, how many rule evaluations could not\nbe decided for want of values."},
	{"pmcd.pmie.eval.expected", 5, 8, pcp.TypeFloat, pmcdInDomPmies, pcp.SemDiscrete, perSecond,
		"rule evaluations expected per second",
		"For each pmie running on this host, the rate of rule evaluations its\nrules and their intervals call for."},
	{"pmcd.pmie.eval.actual", 5, 9, pcp.TypeU32, pmcdInDomPmies, pcp.SemCounter, countOne,
		"rule evaluations made",
		"For each pmie running on this host, how many rule evaluations it has\nmade."},
	{"pmcd.client.whoami", 6, 0, pcp.TypeString, pmcdInDomClients, pcp.SemDiscrete, noUnits,
		"what each client says it is",
		"For each client connected to pmcd, the text it stored into this metric\nto identify itself (pmlogger and pmie do), else an empty string."},
	{"pmcd.client.start_date", 6, 1, pcp.TypeString, pmcdInDomClients, pcp.SemDiscrete, noUnits,
		"when each client connected",
		"For each client connected to pmcd, the local date and time it connected."},
	{"pmcd.client.container", 6, 2, pcp.TypeString, pmcdInDomClients, pcp.SemInstant, noUnits,
		"container of each client",
		"For each client connected to pmcd, the container whose metrics it asked\nfor, else an empty string."},
	{"pmcd.cputime.total", 7, 0, pcp.TypeU64, 0, pcp.SemCounter, msec,
		"CPU time used by pmcd",
		"Milliseconds of CPU time, user and system together, pmcd has used since\nit started, agents running inside it included."},
	{"pmcd.cputime.per_pdu_in", 7, 1, pcp.TypeDouble, 0, pcp.SemInstant, usecPerPU,
		"CPU time per PDU received",
		"Microseconds of pmcd's CPU time for each PDU it received since this\nclient last fetched the metric (since pmcd started, on the first fetch)."},
	{"pmcd.feature.secure", 8, 0, pcp.TypeU32, 0, pcp.SemInstant, noUnits,
		"whether pmcd offers TLS",
		"1 when pmcd can encrypt client connections, else 0."},
	{"pmcd.feature.compress", 8, 1, pcp.TypeU32, 0, pcp.SemInstant, noUnits,
		"whether pmcd offers compression",
		"1 when pmcd can compress client connections, else 0; retired in PCP 6."},
	{"pmcd.feature.ipv6", 8, 2, pcp.TypeU32, 0, pcp.SemInstant, noUnits,
		"whether pmcd speaks IPv6",
		"1 when pmcd accepts clients over IPv6, else 0."},
	{"pmcd.feature.authentication", 8, 3, pcp.TypeU32, 0, pcp.SemInstant, noUnits,
		"whether pmcd offers authentication",
		"1 when pmcd offers clients the authentication exchange, else 0."},
	{"pmcd.feature.creds_required", 8, 4, pcp.TypeU32, 0, pcp.SemInstant, noUnits,
		"whether clients must prove who they are",
		"1 when pmcd requires credentials of its clients (pmcd -S, or user and\ngroup rules in pmcd.conf's access section), else 0."},
	{"pmcd.feature.unix_domain_sockets", 8, 5, pcp.TypeU32, 0, pcp.SemInstant, noUnits,
		"whether pmcd has a Unix socket",
		"1 when pmcd accepts local clients on a Unix domain socket, else 0."},
	{"pmcd.feature.service_discovery", 8, 6, pcp.TypeU32, 0, pcp.SemInstant, noUnits,
		"whether pmcd advertises itself",
		"1 when pmcd announces itself for service discovery on the network, else 0."},
	{"pmcd.feature.containers", 8, 7, pcp.TypeU32, 0, pcp.SemInstant, noUnits,
		"whether pmcd serves containers",
		"1 when clients may ask pmcd for the metrics of a container, else 0."},
	{"pmcd.feature.local", 8, 8, pcp.TypeU32, 0, pcp.SemInstant, noUnits,
		"whether pmcd is local only",
		"1 when pmcd accepts clients from this host only, else 0."},
	{"pmcd.feature.client_cert_required", 8, 9, pcp.TypeU32, 0, pcp.SemInstant, noUnits,
		"whether clients need certificates",
		"1 when pmcd requires remote clients to present a certificate, else 0."},
}

// Table is the metric and instance domain tables of pmcd's agent, for
// domain 0.
func Table() ([]pmda.Metric, []pmda.InDom) {
	var ms []pmda.Metric
	add := func(m pmcdMetric) {
		indom := pcp.InDomNull
		if m.indom != 0 {
			indom = pcp.NewInDom(0, m.indom)
		}
		ms = append(ms, pmda.Metric{
			Name: m.name,
			Desc: pcp.Desc{PMID: pcp.NewPMID(0, m.cluster, m.item), Type: m.typ, InDom: indom,
				Sem: m.sem, Units: m.units},
			OneLine: m.oneLine, Help: m.help,
		})
	}
	for _, m := range pmcdMetrics {
		add(m)
	}
	for cluster, dir := range map[uint32]string{1: "in", 2: "out"} {
		for item := uint32(0); item <= 24; item++ {
			name, ok := pduNames[item]
			if !ok {
				continue
			}
			m := pmcdMetric{name: "pmcd.pdu_" + dir + "." + name, cluster: cluster, item: item,
				typ: pcp.TypeU32, sem: pcp.SemCounter, units: countOne}
			verb := "received"
			if dir == "out" {
				verb = "sent"
			}
			if item == 16 {
				m.oneLine = "PDUs " + verb + " by pmcd, all types"
				m.help = "How many PDUs of every type pmcd has " + verb + ", to and from clients\nand agents together."
			} else {
				m.oneLine = name + " PDUs " + verb + " by pmcd"
				m.help = "How many " + pduWords[item] + " PDUs pmcd has " + verb + ", from\nclients and agents together, since it started."
				if dir == "out" {
					m.help = "How many " + pduWords[item] + " PDUs pmcd has " + verb + ", to\nclients and agents together, since it started."
				}
			}
			add(m)
		}
	}
	regs := make([]pmda.Instance, NumRegisters)
	for i := range regs {
		regs[i] = pmda.Instance{ID: int32(i), Name: itoa(i)}
	}
	indoms := []pmda.InDom{
		{InDom: pcp.NewInDom(0, pmcdInDomLoggers), OneLine: "pmloggers running on this host",
			Help: "The pmloggers running on this host, by process id; a primary logger also\nappears as \"primary\"."},
		{InDom: pcp.NewInDom(0, pmcdInDomRegister), OneLine: "registers of pmcd.control.register",
			Help: "The sixteen registers, numbered 0 to 15.", Instances: regs},
		{InDom: pcp.NewInDom(0, pmcdInDomAgents), OneLine: "agents of pmcd.conf",
			Help: "The agents pmcd.conf names, by domain number, named as pmcd.conf names them."},
		{InDom: pcp.NewInDom(0, pmcdInDomPmies), OneLine: "pmies running on this host",
			Help: "The pmie inference engines running on this host, by process id."},
		{InDom: pcp.NewInDom(0, pmcdInDomBufs), OneLine: "PDU buffer size classes",
			Help: "Size classes of PDU buffers, in bytes.", Instances: bufInstances},
		{InDom: pcp.NewInDom(0, pmcdInDomClients), OneLine: "clients connected to pmcd",
			Help: "The clients connected to pmcd, by a number given to each connection in\nturn."},
	}
	return ms, indoms
}

// bufInstances are PCP's PDU buffer size classes.
var bufInstances = []pmda.Instance{
	{ID: 12, Name: "0012"}, {ID: 20, Name: "0020"}, {ID: 1024, Name: "1024"},
	{ID: 2048, Name: "2048"}, {ID: 4196, Name: "4196"}, {ID: 8192, Name: "8192"},
	{ID: 8193, Name: "8192+"},
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + itoa(n%10)
}
