package local

import (
	"encoding/json"
	"os"

	"github.com/gopcp/gopcp/internal/hostlabels"
	"github.com/gopcp/gopcp/pcp"
)

// contextLabels are a local context's labels: the host's, and this
// process's user and group as optional labels.
func contextLabels() (pcp.LabelSet, error) {
	l := hostlabels.Read(hostlabels.SysconfDir())
	for k, v := range map[string]int{"userid": os.Getuid(), "groupid": os.Getgid()} {
		b, _ := json.Marshal(v)
		l[k] = hostlabels.Label{Value: b, Optional: true}
	}
	return l.Set()
}
