package hostlabels

import (
	"bytes"
	"encoding/json"
	"fmt"
	"syscall"

	"github.com/gopcp/gopcp/pcp"
)

// Default is the context label set PCP falls back on when a context has
// none (a pmcd too old for labels, an archive that records none), as
// libpcp (archive_host_labels), libpcp_web (default_labelset) and pminfo
// (defaultlabels) all build it: the text {"hostname":"<host>"} with the
// name put between the quotes as it is, then parsed as a label set. So a
// name holding JSON escapes keeps them as written, one that makes the text
// no JSON object (a lone quote or backslash, a control byte) gives EINVAL
// as PCP's parse does, and one that closes the string early gives the
// labels the text then holds (all checked against PCP 6.0.3's pminfo on
// archives whose label names such hosts). A compound value is refused
// (EINVAL), where libpcp would keep it.
func Default(host string) (*pcp.LabelSet, error) {
	js := `{"hostname":"` + host + `"}`
	if len(js)+1 >= pcp.MaxLabelJSONLen {
		return nil, fmt.Errorf("hostlabels: host name of %d bytes: %w", len(host), pcp.Error(-int32(syscall.E2BIG)))
	}
	bad := fmt.Errorf("hostlabels: host name %q: %w", host, pcp.Error(-int32(syscall.EINVAL)))
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(js), &obj); err != nil {
		return nil, bad
	}
	labels := Labels{}
	for k, v := range obj {
		if len(v) > 0 && (v[0] == '{' || v[0] == '[') {
			return nil, bad
		}
		var compact bytes.Buffer
		if json.Compact(&compact, v) != nil {
			return nil, bad
		}
		labels[k] = Label{Value: compact.Bytes()}
	}
	set, err := labels.Set()
	if err != nil {
		return nil, err
	}
	return &set, nil
}
