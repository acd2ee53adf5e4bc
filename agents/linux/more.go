package linux

// bindMore binds the smaller families: /proc/sys/fs, network totals,
// login counts, the agent's own identity, serial lines, tape drives,
// SCSI and md device maps.
func (x *Linux) bindMore() {
	x.bindVFS()
	x.bindNetAll()
	x.bindLogin()
	x.bindNFS()
	x.bindTTY()
	x.bindTape()
	x.bindZram()
	x.bindConns()
	x.bindFCHost()
	x.bindExtfrag()
	x.bindWWID()
	x.bind("pmda.uname", srcUname, func(int32) (pcpAtom, error) {
		u := &x.uname
		return str(u.pmdaUname), nil
	})
	x.bind("pmda.version", srcStatic, func(int32) (pcpAtom, error) { return str(pcpVersion), nil })
	x.bind("disk.md.status", srcDiskstats, func(inst int32) (pcpAtom, error) {
		if x.disks.get(kindMD, inst) == nil {
			return pcpAtom{}, noInst
		}
		for _, in := range x.indoms[mdInDom].list() {
			if in.ID == inst {
				return i32(int64(x.mdStatus(in.Name))), nil
			}
		}
		return pcpAtom{}, noInst
	})
	x.bind("hinv.map.scsi", srcSCSI, func(inst int32) (pcpAtom, error) {
		for _, in := range x.indoms[scsiInDom].list() {
			if in.ID == inst {
				return str(x.scsiDev[inst]), nil
			}
		}
		return pcpAtom{}, noInst
	})
	x.sources[srcSCSI] = x.readSCSI
	x.bind("network.tcp.fastopenactivefail", srcSnmp, x.snmp.getter(x.snmp.slot("TcpExt:TCPFastOpenActiveFail")))
}

// pcpVersion is the PCP release whose agent this one matches.
const pcpVersion = "6.0.3"
