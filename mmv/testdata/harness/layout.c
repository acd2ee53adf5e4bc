/*
 * layout: prints the sizes and field offsets of the MMV records as PCP's
 * installed mmv_dev.h lays them out, one "name value" per line, for
 * mmv/format_test.go to compare with format.go.
 */
#include <pcp/pmapi.h>
#include <pcp/mmv_stats.h>
#include <pcp/mmv_dev.h>
#include <stdio.h>
#include <stddef.h>

#define P(name, v) printf("%s %d\n", name, (int)(v))

int
main(void)
{
    P("HeaderSize", sizeof(mmv_disk_header_t));
    P("hdrVersion", offsetof(mmv_disk_header_t, version));
    P("hdrG1", offsetof(mmv_disk_header_t, g1));
    P("hdrG2", offsetof(mmv_disk_header_t, g2));
    P("hdrTOCs", offsetof(mmv_disk_header_t, tocs));
    P("hdrFlags", offsetof(mmv_disk_header_t, flags));
    P("hdrProcess", offsetof(mmv_disk_header_t, process));
    P("hdrCluster", offsetof(mmv_disk_header_t, cluster));
    P("TOCSize", sizeof(mmv_disk_toc_t));
    P("TOCType", offsetof(mmv_disk_toc_t, type));
    P("TOCCount", offsetof(mmv_disk_toc_t, count));
    P("TOCOffset", offsetof(mmv_disk_toc_t, offset));
    P("InDomSize", sizeof(mmv_disk_indom_t));
    P("InDomSerial", offsetof(mmv_disk_indom_t, serial));
    P("InDomCount", offsetof(mmv_disk_indom_t, count));
    P("InDomInstances", offsetof(mmv_disk_indom_t, offset));
    P("InDomShortText", offsetof(mmv_disk_indom_t, shorttext));
    P("InDomHelpText", offsetof(mmv_disk_indom_t, helptext));
    P("Instance1Size", sizeof(mmv_disk_instance_t));
    P("Instance2Size", sizeof(mmv_disk_instance2_t));
    P("InstanceInDom", offsetof(mmv_disk_instance_t, indom));
    P("InstanceInternal", offsetof(mmv_disk_instance_t, internal));
    P("InstanceExternal", offsetof(mmv_disk_instance_t, external));
    P("Instance2InDom", offsetof(mmv_disk_instance2_t, indom));
    P("Instance2Internal", offsetof(mmv_disk_instance2_t, internal));
    P("Instance2External", offsetof(mmv_disk_instance2_t, external));
    P("Metric1Size", sizeof(mmv_disk_metric_t));
    P("Metric1.Name", offsetof(mmv_disk_metric_t, name));
    P("Metric1.Item", offsetof(mmv_disk_metric_t, item));
    P("Metric1.Type", offsetof(mmv_disk_metric_t, type));
    P("Metric1.Sem", offsetof(mmv_disk_metric_t, semantics));
    P("Metric1.Units", offsetof(mmv_disk_metric_t, dimension));
    P("Metric1.InDom", offsetof(mmv_disk_metric_t, indom));
    P("Metric1.ShortText", offsetof(mmv_disk_metric_t, shorttext));
    P("Metric1.HelpText", offsetof(mmv_disk_metric_t, helptext));
    P("Metric2Size", sizeof(mmv_disk_metric2_t));
    P("Metric2.Name", offsetof(mmv_disk_metric2_t, name));
    P("Metric2.Item", offsetof(mmv_disk_metric2_t, item));
    P("Metric2.Type", offsetof(mmv_disk_metric2_t, type));
    P("Metric2.Sem", offsetof(mmv_disk_metric2_t, semantics));
    P("Metric2.Units", offsetof(mmv_disk_metric2_t, dimension));
    P("Metric2.InDom", offsetof(mmv_disk_metric2_t, indom));
    P("Metric2.ShortText", offsetof(mmv_disk_metric2_t, shorttext));
    P("Metric2.HelpText", offsetof(mmv_disk_metric2_t, helptext));
    P("ValueSize", sizeof(mmv_disk_value_t));
    P("ValueAtom", offsetof(mmv_disk_value_t, value));
    P("ValueExtra", offsetof(mmv_disk_value_t, extra));
    P("ValueMetric", offsetof(mmv_disk_value_t, metric));
    P("ValueInstance", offsetof(mmv_disk_value_t, instance));
    P("StringSize", sizeof(mmv_disk_string_t));
    P("LabelSize", sizeof(mmv_disk_label_t));
    P("LabelFlags", offsetof(mmv_disk_label_t, flags));
    P("LabelIdentity", offsetof(mmv_disk_label_t, identity));
    P("LabelInternal", offsetof(mmv_disk_label_t, internal));
    P("LabelPayload", offsetof(mmv_disk_label_t, payload));
    P("NameMax", MMV_NAMEMAX);
    P("LabelMax", MMV_LABELMAX);
    P("TOCInDoms", MMV_TOC_INDOMS);
    P("TOCInstances", MMV_TOC_INSTANCES);
    P("TOCMetrics", MMV_TOC_METRICS);
    P("TOCValues", MMV_TOC_VALUES);
    P("TOCStrings", MMV_TOC_STRINGS);
    P("TOCLabels", MMV_TOC_LABELS);
    P("NoPrefix", MMV_FLAG_NOPREFIX);
    P("Process", MMV_FLAG_PROCESS);
    P("Sentinel", MMV_FLAG_SENTINEL);
    P("Elapsed", MMV_TYPE_ELAPSED);
    P("labelInDom", PM_LABEL_INDOM);
    P("labelCluster", PM_LABEL_CLUSTER);
    P("labelItem", PM_LABEL_ITEM);
    P("labelInstances", PM_LABEL_INSTANCES);
    P("labelOptional", PM_LABEL_OPTIONAL);
    return 0;
}
