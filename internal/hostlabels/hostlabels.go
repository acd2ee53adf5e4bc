// Package hostlabels computes a host's context labels as libpcp and
// PCP's pmcd build them: the flat JSON objects of the files in
// $PCP_SYSCONF_DIR/labels (then labels/optional, whose labels are flagged
// optional), overridden by hostname, domainname and machineid (or
// machineid_sha256 when labels.conf asks for it). pmcd answers context
// label requests with them and a local context (pmapi) reports them, so
// both share this one implementation.
//
// Label values that are JSON objects or arrays (compound labels) are
// dropped from the files, and files that do not parse are ignored, as PCP
// ignores them. The functions are safe for concurrent use: each call reads
// the files afresh.
package hostlabels

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pcp"
)

// Label is one label's compact JSON value and whether it is optional.
type Label struct {
	Value    json.RawMessage
	Optional bool
}

// Labels maps label names to their values.
type Labels map[string]Label

// SysconfDir is $PCP_SYSCONF_DIR (environment, then pcp.conf), else
// /etc/pcp.
func SysconfDir() string {
	if d, ok := pcpconf.Get("PCP_SYSCONF_DIR"); ok && d != "" {
		return d
	}
	return "/etc/pcp"
}

// Read returns the host's labels from the configuration under sysconf
// and the host's names.
func Read(sysconf string) Labels {
	labels := Configured(sysconf)
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	labels.SetString("hostname", host)
	dom := domainName()
	if dom == "" || dom == "(none)" {
		dom = "localdomain"
	}
	labels.SetString("domainname", dom)
	idName, id := machineID(sysconf)
	labels.SetString(idName, id)
	return labels
}

// Configured returns the labels of the files under sysconf alone,
// without the host's names: what PCP's pmcd compares at a SIGHUP to tell
// whether the labels changed.
func Configured(sysconf string) Labels {
	labels := Labels{}
	readDir(filepath.Join(sysconf, "labels"), false, labels)
	readDir(filepath.Join(sysconf, "labels", "optional"), true, labels)
	return labels
}

// SetString sets a label to a JSON string, not optional.
func (l Labels) SetString(name, value string) {
	b, _ := json.Marshal(value)
	l[name] = Label{Value: b}
}

// readLimited reads at most a label set's worth of a file, as libpcp
// reads a labels file into a buffer of that size: a longer file is cut
// short, fails to parse and is ignored, and no file, however large, is
// held whole.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, pcp.MaxLabelJSONLen-1))
}

// readDir merges the flat JSON objects of the files in dir, in name
// order, into labels.
func readDir(dir string, optional bool, labels Labels) {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || e.IsDir() {
			continue
		}
		b, err := readLimited(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(b, &obj) != nil {
			continue
		}
		for k, v := range obj {
			v = bytes.TrimSpace(v)
			if len(v) > 0 && (v[0] == '{' || v[0] == '[') {
				continue
			}
			var compact bytes.Buffer
			if json.Compact(&compact, v) != nil {
				continue
			}
			labels[k] = Label{Value: compact.Bytes(), Optional: optional}
		}
	}
}
