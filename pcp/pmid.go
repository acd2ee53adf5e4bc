package pcp

// PMID identifies one metric: a domain (the agent), a cluster and an item,
// packed as PCP packs them so the value is the one seen on the wire and in
// archives. The top bit is PCP's flag for dynamic (derived) identifiers.
type PMID uint32

// PMIDNull is PM_ID_NULL, the identifier that names no metric.
const PMIDNull PMID = 0xffffffff

// Field widths of a PMID, most significant first: flag 1, domain 9,
// cluster 12, item 10.
const (
	pmidItemBits    = 10
	pmidClusterBits = 12
	pmidDomainBits  = 9

	MaxDomain  = 1<<pmidDomainBits - 1
	MaxCluster = 1<<pmidClusterBits - 1
	MaxItem    = 1<<pmidItemBits - 1
)

// NewPMID packs domain, cluster and item; values wider than their field are
// truncated to it, as PCP's pmID_build does.
func NewPMID(domain, cluster, item uint32) PMID {
	return PMID((domain&MaxDomain)<<(pmidClusterBits+pmidItemBits) |
		(cluster&MaxCluster)<<pmidItemBits |
		item&MaxItem)
}

// Domain is the agent's domain number.
func (p PMID) Domain() uint32 { return uint32(p) >> (pmidClusterBits + pmidItemBits) & MaxDomain }

// Cluster is the metric's cluster within its domain.
func (p PMID) Cluster() uint32 { return uint32(p) >> pmidItemBits & MaxCluster }

// Item is the metric's item within its cluster.
func (p PMID) Item() uint32 { return uint32(p) & MaxItem }

// Flag reports the top bit, which PCP sets on identifiers it makes up at run
// time (derived metrics).
func (p PMID) Flag() bool { return p>>31 != 0 }

// InDom identifies an instance domain: a domain (the agent) and a serial
// number, packed as PCP packs them.
type InDom uint32

// InDomNull is PM_INDOM_NULL: the metric has a single value and no instances.
const InDomNull InDom = 0xffffffff

// InstNull is PM_IN_NULL, the instance of a value that has no instance domain.
const InstNull int32 = -1

const (
	indomSerialBits = 22
	MaxSerial       = 1<<indomSerialBits - 1
)

// NewInDom packs domain and serial; wider values are truncated to their field.
func NewInDom(domain, serial uint32) InDom {
	return InDom((domain&MaxDomain)<<indomSerialBits | serial&MaxSerial)
}

// Domain is the agent's domain number.
func (i InDom) Domain() uint32 { return uint32(i) >> indomSerialBits & MaxDomain }

// Serial is the instance domain's number within its agent.
func (i InDom) Serial() uint32 { return uint32(i) & MaxSerial }
