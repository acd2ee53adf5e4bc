package mmv

import "encoding/binary"

// layout is where everything of one file image lives: the image is built
// by build, and the handles are pointed at values and string slots found
// through valueOff and stringOff.
type layout struct {
	version  int32
	size     int
	valueOff [][]int // per metric, per value (instance order): offset of the value
	strOff   [][]int // per metric, per value: offset of its string slot (String metrics only)
}

// chooseVersion picks the format libpcp_mmv would: 3 when any label is
// present, else 2 when a metric or instance name does not fit version 1's
// 64-byte fields, else 1.
func (r *Registry) chooseVersion() int32 {
	if len(r.labels) > 0 {
		return Version3
	}
	for _, in := range r.indoms {
		if len(in.labels) > 0 {
			return Version3
		}
		for _, i := range in.insts {
			if len(i.labels) > 0 {
				return Version3
			}
		}
	}
	for _, m := range r.metrics {
		if len(m.labels) > 0 {
			return Version3
		}
	}
	v := int32(Version1)
	for _, in := range r.indoms {
		for _, i := range in.insts {
			if len(i.Name) >= NameMax {
				v = Version2
			}
		}
	}
	for _, m := range r.metrics {
		if len(m.name) >= NameMax {
			v = Version2
		}
	}
	return v
}

// build lays out and writes the image of the registry as libpcp_mmv's
// mmv_stats_start would: the same sections in the same order, the same
// string table order (instance names, metric names, string values, metric
// help, indom help) and the same label order, so that a reader sees the
// same file. The generation numbers are left for the caller (g1 and g2
// zero).
func (r *Registry) build(pid int32) ([]byte, *layout) {
	v := r.chooseVersion()
	long := v != Version1
	instSize, ml := Instance1Size, Metric1Layout
	if long {
		instSize, ml = Instance2Size, Metric2Layout
	}
	metricSize := ml.Size

	ninst, nvalues, nstrings := 0, 0, 0
	for _, in := range r.indoms {
		ninst += len(in.insts)
		if long {
			nstrings += len(in.insts)
		}
		nstrings += count(in.short) + count(in.help)
	}
	for _, m := range r.metrics {
		n := m.nvalues()
		nvalues += n
		if long {
			nstrings++
		}
		if m.typ == String {
			nstrings += n
		}
		nstrings += count(m.short) + count(m.help)
	}
	labels := r.allLabels()

	tocs := 2
	if len(r.indoms) > 0 {
		tocs += 2
	}
	if nstrings > 0 {
		tocs++
	}
	if len(labels) > 0 {
		tocs++
	}
	indomsOff := HeaderSize + tocs*TOCSize
	instOff := indomsOff + len(r.indoms)*InDomSize
	metricsOff := instOff + ninst*instSize
	valuesOff := metricsOff + len(r.metrics)*metricSize
	stringsOff := valuesOff + nvalues*ValueSize
	labelsOff := stringsOff + nstrings*StringSize
	size := labelsOff + len(labels)*LabelSize
	b := make([]byte, size)

	putHeader(b, header{Version: v, TOCs: int32(tocs), Flags: r.flags, Process: pid, Cluster: r.cluster})
	t := HeaderSize
	toc := func(typ, n, off int) {
		putTOC(b[t:], int32(typ), int32(n), uint64(off))
		t += TOCSize
	}
	if len(r.indoms) > 0 {
		toc(TOCInDoms, len(r.indoms), indomsOff)
		toc(TOCInstances, ninst, instOff)
	}
	toc(TOCMetrics, len(r.metrics), metricsOff)
	toc(TOCValues, nvalues, valuesOff)
	if nstrings > 0 {
		toc(TOCStrings, nstrings, stringsOff)
	}
	if len(labels) > 0 {
		toc(TOCLabels, len(labels), labelsOff)
	}

	// String slots are handed out in libpcp_mmv's order.
	next := stringsOff
	str := func(s string) uint64 {
		off := next
		putString(b[off:], s, StringSize)
		next += StringSize
		return uint64(off)
	}

	// Instance domains and their instances.
	firstInst := map[*InDom]int{}
	p := instOff
	for k, in := range r.indoms {
		d := b[indomsOff+k*InDomSize:]
		binary.LittleEndian.PutUint32(d[InDomSerial:], in.serial)
		binary.LittleEndian.PutUint32(d[InDomCount:], uint32(len(in.insts)))
		binary.LittleEndian.PutUint64(d[InDomInstances:], uint64(p))
		firstInst[in] = p
		for _, i := range in.insts {
			e := b[p:]
			binary.LittleEndian.PutUint64(e[InstanceInDom:], uint64(indomsOff+k*InDomSize))
			binary.LittleEndian.PutUint32(e[InstanceInternal:], uint32(i.ID))
			if !long {
				putString(e[InstanceExternal:], i.Name, NameMax)
			}
			p += instSize
		}
	}
	if long {
		for _, in := range r.indoms {
			for j, i := range in.insts {
				binary.LittleEndian.PutUint64(b[firstInst[in]+j*instSize+InstanceExternal:], str(i.Name))
			}
		}
	}

	// Metrics.
	for k, m := range r.metrics {
		d := b[metricsOff+k*metricSize:]
		if !long {
			putString(d[ml.Name:], m.name, NameMax)
		}
		binary.LittleEndian.PutUint32(d[ml.Item:], m.item)
		binary.LittleEndian.PutUint32(d[ml.Type:], uint32(m.typ))
		binary.LittleEndian.PutUint32(d[ml.Sem:], uint32(m.sem))
		binary.LittleEndian.PutUint32(d[ml.Units:], m.units.Pack())
		if m.indom != nil {
			binary.LittleEndian.PutUint32(d[ml.InDom:], m.indom.serial)
		}
	}
	if long {
		for k, m := range r.metrics {
			binary.LittleEndian.PutUint64(b[metricsOff+k*metricSize+ml.Name:], str(m.name))
		}
	}

	// Values, then the string slots of string values.
	lay := &layout{version: v, size: size}
	p = valuesOff
	for k, m := range r.metrics {
		offs := make([]int, m.nvalues())
		for j := range offs {
			e := b[p:]
			binary.LittleEndian.PutUint64(e[ValueMetric:], uint64(metricsOff+k*metricSize))
			if m.indom != nil {
				binary.LittleEndian.PutUint64(e[ValueInstance:], uint64(firstInst[m.indom]+j*instSize))
			}
			offs[j] = p
			p += ValueSize
		}
		lay.valueOff = append(lay.valueOff, offs)
	}
	for k, m := range r.metrics {
		var soffs []int
		if m.typ == String {
			for _, off := range lay.valueOff[k] {
				s := str("")
				binary.LittleEndian.PutUint64(b[off+ValueExtra:], s)
				soffs = append(soffs, int(s))
			}
		}
		lay.strOff = append(lay.strOff, soffs)
	}

	// Help text: metrics', then instance domains'.
	for k, m := range r.metrics {
		d := metricsOff + k*metricSize
		if m.short != "" {
			binary.LittleEndian.PutUint64(b[d+ml.ShortText:], str(m.short))
		}
		if m.help != "" {
			binary.LittleEndian.PutUint64(b[d+ml.HelpText:], str(m.help))
		}
	}
	for k, in := range r.indoms {
		d := indomsOff + k*InDomSize
		if in.short != "" {
			binary.LittleEndian.PutUint64(b[d+InDomShortText:], str(in.short))
		}
		if in.help != "" {
			binary.LittleEndian.PutUint64(b[d+InDomHelpText:], str(in.help))
		}
	}

	// Labels.
	for k, l := range labels {
		d := b[labelsOff+k*LabelSize:]
		binary.LittleEndian.PutUint32(d[LabelFlags:], l.flags)
		binary.LittleEndian.PutUint32(d[LabelIdentity:], l.identity)
		binary.LittleEndian.PutUint32(d[LabelInternal:], l.internal)
		putString(d[LabelPayload:], l.payload, LabelMax)
	}
	return b, lay
}

func count(s string) int {
	if s == "" {
		return 0
	}
	return 1
}

// diskLabel is one label record, ready to write.
type diskLabel struct {
	flags, identity, internal uint32
	payload                   string
}

// allLabels lists the labels in the order they are written: the
// registry's, then each instance domain's followed by its instances', then
// each metric's.
func (r *Registry) allLabels() []diskLabel {
	var out []diskLabel
	add := func(ls []label, flags, identity, internal uint32) {
		for _, l := range ls {
			f := flags
			if l.optional {
				f |= labelOptional
			}
			out = append(out, diskLabel{f, identity, internal, l.payload})
		}
	}
	add(r.labels, labelCluster, r.cluster, inNull)
	for _, in := range r.indoms {
		add(in.labels, labelInDom, in.serial, inNull)
		for _, i := range in.insts {
			add(i.labels, labelInstances, in.serial, uint32(i.ID))
		}
	}
	for _, m := range r.metrics {
		add(m.labels, labelItem, m.item, inNull)
	}
	return out
}
