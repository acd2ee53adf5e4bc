package mmv

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestFormatMatchesHeaders compares format.go with PCP's installed
// mmv_dev.h and mmv_stats.h: every record size, field offset and code,
// as offsetof and sizeof give them.
func TestFormatMatchesHeaders(t *testing.T) {
	writerHarness(t) // skips or fails without libpcp-mmv1-dev
	bin := pcptest.Harness(t, "testdata/harness/layout.c")
	ours := map[string]int{
		"HeaderSize": HeaderSize, "hdrVersion": hdrVersion, "hdrG1": hdrG1, "hdrG2": hdrG2,
		"hdrTOCs": hdrTOCs, "hdrFlags": hdrFlags, "hdrProcess": hdrProcess, "hdrCluster": hdrCluster,
		"TOCSize": TOCSize, "TOCType": TOCType, "TOCCount": TOCCount, "TOCOffset": TOCOffset,
		"InDomSize": InDomSize, "InDomSerial": InDomSerial, "InDomCount": InDomCount,
		"InDomInstances": InDomInstances, "InDomShortText": InDomShortText, "InDomHelpText": InDomHelpText,
		"Instance1Size": Instance1Size, "Instance2Size": Instance2Size,
		"InstanceInDom": InstanceInDom, "InstanceInternal": InstanceInternal, "InstanceExternal": InstanceExternal,
		"Instance2InDom": InstanceInDom, "Instance2Internal": InstanceInternal, "Instance2External": InstanceExternal,
		"Metric1Size": Metric1Size, "Metric2Size": Metric2Size,
		"ValueSize": ValueSize, "ValueAtom": ValueAtom, "ValueExtra": ValueExtra,
		"ValueMetric": ValueMetric, "ValueInstance": ValueInstance,
		"StringSize": StringSize, "LabelSize": LabelSize, "LabelFlags": LabelFlags,
		"LabelIdentity": LabelIdentity, "LabelInternal": LabelInternal, "LabelPayload": LabelPayload,
		"NameMax": NameMax, "LabelMax": LabelMax,
		"TOCInDoms": TOCInDoms, "TOCInstances": TOCInstances, "TOCMetrics": TOCMetrics,
		"TOCValues": TOCValues, "TOCStrings": TOCStrings, "TOCLabels": TOCLabels,
		"NoPrefix": int(NoPrefix), "Process": int(Process), "Sentinel": int(Sentinel), "Elapsed": int(Elapsed),
		"labelInDom": labelInDom, "labelCluster": labelCluster, "labelItem": labelItem,
		"labelInstances": labelInstances, "labelOptional": labelOptional,
	}
	for v, l := range map[string]MetricLayout{"Metric1": Metric1Layout, "Metric2": Metric2Layout} {
		for f, n := range map[string]int{"Name": l.Name, "Item": l.Item, "Type": l.Type, "Sem": l.Sem,
			"Units": l.Units, "InDom": l.InDom, "ShortText": l.ShortText, "HelpText": l.HelpText} {
			ours[v+"."+f] = n
		}
		if l.Size != map[string]int{"Metric1": Metric1Size, "Metric2": Metric2Size}[v] {
			t.Errorf("%s layout size %d", v, l.Size)
		}
	}
	seen := 0
	for line := range strings.Lines(pcptest.Run(t, "", bin)) {
		name, val, _ := strings.Cut(strings.TrimSpace(line), " ")
		want, err := strconv.Atoi(val)
		if err != nil {
			t.Fatalf("harness line %q", line)
		}
		got, ok := ours[name]
		if !ok {
			t.Errorf("%s: not checked", name)
			continue
		}
		seen++
		if got != want {
			t.Errorf("%s = %d, PCP's headers say %d", name, got, want)
		}
	}
	if seen != len(ours) {
		t.Errorf("compared %d of %d constants", seen, len(ours))
	}
}
