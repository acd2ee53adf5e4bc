package pmapi

import (
	"github.com/gopcp/gopcp/internal/hostlabels"
	"github.com/gopcp/gopcp/pcp"
)

// HostLabels returns this host's context labels as libpcp and pmcd build
// them: the flat JSON objects of the files in $PCP_SYSCONF_DIR/labels
// (then labels/optional, flagged optional), overridden by hostname,
// domainname and machineid (machineid_sha256 when labels.conf asks for
// it). Label values that are JSON objects or arrays are dropped.
func HostLabels() (pcp.LabelSet, error) {
	return hostlabels.Read(hostlabels.SysconfDir()).Set()
}
