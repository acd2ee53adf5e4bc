package pmapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// HostLabels returns this host's context labels as libpcp and pmcd build
// them: the flat JSON objects of the files in $PCP_SYSCONF_DIR/labels
// (then labels/optional, flagged optional), overridden by hostname,
// domainname and machineid (machineid_sha256 when labels.conf asks for
// it). Label values that are JSON objects or arrays are dropped.
func HostLabels() (pcp.LabelSet, error) {
	sysconf := "/etc/pcp"
	if d, ok := pcpconf.Get("PCP_SYSCONF_DIR"); ok {
		sysconf = d
	}
	values := map[string]json.RawMessage{}
	optional := map[string]bool{}
	readLabels(filepath.Join(sysconf, "labels"), false, values, optional)
	readLabels(filepath.Join(sysconf, "labels", "optional"), true, values, optional)
	str := func(s string) json.RawMessage {
		b, _ := json.Marshal(s)
		return b
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	dom := nisDomain()
	if dom == "" || dom == "(none)" {
		dom = "localdomain"
	}
	idName, id := machineID(sysconf)
	for k, v := range map[string]string{"hostname": host, "domainname": dom, idName: id} {
		values[k] = str(v)
		delete(optional, k)
	}
	return buildLabelSet(values, optional)
}

// localContextLabels are a local context's labels: the host's, and this
// process's user and group as optional labels.
func localContextLabels() (pcp.LabelSet, error) {
	set, err := HostLabels()
	if err != nil {
		return set, err
	}
	values := map[string]json.RawMessage{}
	optional := map[string]bool{}
	for i, l := range set.Labels {
		values[set.LabelName(i)] = json.RawMessage(set.LabelValue(i))
		if l.Flags&pcp.LabelOptional != 0 {
			optional[set.LabelName(i)] = true
		}
	}
	for k, v := range map[string]int{"userid": os.Getuid(), "groupid": os.Getgid()} {
		b, _ := json.Marshal(v)
		values[k] = b
		optional[k] = true
	}
	return buildLabelSet(values, optional)
}

func buildLabelSet(values map[string]json.RawMessage, optional map[string]bool) (pcp.LabelSet, error) {
	labels := make([]pmda.Label, 0, len(values))
	for k, v := range values {
		labels = append(labels, pmda.Label{Name: k, Value: v})
	}
	set, err := pmda.NewLabelSet(pcp.InstNull, pcp.LabelContext, labels)
	if err != nil {
		return set, err
	}
	for i := range set.Labels {
		if optional[set.LabelName(i)] {
			set.Labels[i].Flags |= pcp.LabelOptional
		}
	}
	return set, nil
}

func readLabels(dir string, opt bool, values map[string]json.RawMessage, optional map[string]bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(b, &obj) != nil {
			continue
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			v := bytes.TrimSpace(obj[k])
			if len(v) > 0 && (v[0] == '{' || v[0] == '[') {
				continue
			}
			var compact bytes.Buffer
			if json.Compact(&compact, v) != nil {
				continue
			}
			values[k] = compact.Bytes()
			optional[k] = opt
		}
	}
}

func machineID(sysconf string) (string, string) {
	id := "localmachine"
	for _, p := range []string{"/etc/machine-id", "/var/lib/dbus/machine-id"} {
		if b, err := os.ReadFile(p); err == nil {
			if s := strings.TrimSpace(string(b)); s != "" {
				id = s
				break
			}
		}
	}
	conf, err := os.ReadFile(filepath.Join(sysconf, "labels.conf"))
	if err != nil {
		return "machineid", id
	}
	for _, line := range strings.Split(string(conf), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || strings.HasPrefix(line, "[global]") {
			continue
		}
		if line[0] == '[' {
			break
		}
		if rest, ok := strings.CutPrefix(line, "machineid_hash"); ok &&
			strings.HasPrefix(strings.TrimLeft(rest, " \t:="), "sha256") {
			sum := sha256.Sum256([]byte(id))
			return "machineid_sha256", hex.EncodeToString(sum[:])
		}
	}
	return "machineid", id
}
