package pmapi

import (
	"encoding/json"
	"os"

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

// localContextLabels are a local context's labels: the host's, and this
// process's user and group as optional labels.
func localContextLabels() (pcp.LabelSet, error) {
	l := hostlabels.Read(hostlabels.SysconfDir())
	for k, v := range map[string]int{"userid": os.Getuid(), "groupid": os.Getgid()} {
		b, _ := json.Marshal(v)
		l[k] = hostlabels.Label{Value: b, Optional: true}
	}
	return l.Set()
}
