package pmcd

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// contextLabels answers a LABEL_REQ for the context level with pmcd's own
// labels, as PCP's pmcd builds them on each request: the JSON objects of
// the files in $PCP_SYSCONF_DIR/labels (then labels/optional, flagged
// optional), overridden by hostname, domainname and machineid (or
// machineid_sha256 when labels.conf asks for it).
//
// Clients whose credentials pmcd knows (Unix socket clients) also get
// userid and groupid. Not yet done: the container label, and label
// values that are themselves JSON objects (compound labels), which are
// dropped from the files.
func (c *client) contextLabels(m *pdu.LabelReq) (pdu.Message, error) {
	if m.Type>>8 != 0 {
		return nil, pcp.ErrType
	}
	labels := hostLabels(sysconfDir())
	if c.id.HasCreds {
		// A client whose credentials pmcd knows (Unix socket) also
		// gets its user and group ids, as numbers.
		labels["groupid"] = ctxLabel{json.RawMessage(strconv.FormatUint(uint64(c.id.GID), 10)), pcp.LabelContext}
		labels["userid"] = ctxLabel{json.RawMessage(strconv.FormatUint(uint64(c.id.UID), 10)), pcp.LabelContext}
	}
	set, err := encodeLabels(labels)
	if err != nil {
		return nil, err
	}
	return &pdu.Label{Ident: m.Ident, Type: m.Type, Sets: []pcp.LabelSet{set}}, nil
}

func sysconfDir() string {
	if d, ok := pcpconf.Get("PCP_SYSCONF_DIR"); ok {
		return d
	}
	return "/etc/pcp"
}

// ctxLabel is one label's JSON value and flags.
type ctxLabel struct {
	value json.RawMessage
	flags uint8
}

// hostLabelSet builds the context label set from the configuration
// under sysconf and the host's names.
func hostLabelSet(sysconf string) (pcp.LabelSet, error) {
	return encodeLabels(hostLabels(sysconf))
}

// hostLabels are the context labels every client gets.
func hostLabels(sysconf string) map[string]ctxLabel {
	labels := map[string]ctxLabel{}
	readLabelDir(filepath.Join(sysconf, "labels"), pcp.LabelContext, labels)
	readLabelDir(filepath.Join(sysconf, "labels", "optional"), pcp.LabelContext|pcp.LabelOptional, labels)
	str := func(s string) json.RawMessage {
		b, _ := json.Marshal(s)
		return b
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	labels["hostname"] = ctxLabel{str(host), pcp.LabelContext}
	dom := domainName()
	if dom == "" || dom == "(none)" {
		dom = "localdomain"
	}
	labels["domainname"] = ctxLabel{str(dom), pcp.LabelContext}
	idName, id := machineID(sysconf)
	labels[idName] = ctxLabel{str(id), pcp.LabelContext}
	return labels
}

// readLabelDir merges the flat JSON objects of the files in dir, in name
// order, into labels; files that do not parse are ignored, as PCP
// ignores them.
func readLabelDir(dir string, flags uint8, labels map[string]ctxLabel) {
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
		for k, v := range obj {
			v = bytes.TrimSpace(v)
			if len(v) > 0 && (v[0] == '{' || v[0] == '[') {
				continue
			}
			var compact bytes.Buffer
			if json.Compact(&compact, v) != nil {
				continue
			}
			labels[k] = ctxLabel{compact.Bytes(), flags}
		}
	}
}

// machineID reads the host's machine id as PCP does, hashed when
// labels.conf's [global] machineid_hash is sha256; it returns the label's
// name and value.
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
		rest, ok := strings.CutPrefix(line, "machineid_hash")
		if !ok {
			continue
		}
		if strings.HasPrefix(strings.TrimLeft(rest, " \t:="), "sha256") {
			sum := sha256.Sum256([]byte(id))
			return "machineid_sha256", hex.EncodeToString(sum[:])
		}
		break
	}
	return "machineid", id
}

// encodeLabels is a label set of labels sorted by name, as PCP keeps
// them, with its index.
func encodeLabels(labels map[string]ctxLabel) (pcp.LabelSet, error) {
	names := make([]string, 0, len(labels))
	for k := range labels {
		names = append(names, k)
	}
	slices.Sort(names)
	if len(names) >= pcp.MaxLabels {
		return pcp.LabelSet{}, pcp.ErrTooBig
	}
	set := pcp.LabelSet{Inst: pcp.InstNull}
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(k)
		nameOff := b.Len() + 1
		b.Write(name)
		b.WriteByte(':')
		valueOff := b.Len()
		b.Write(labels[k].value)
		if len(name)-2 > 255 || b.Len() >= pcp.MaxLabelJSONLen {
			return pcp.LabelSet{}, pcp.ErrTooBig
		}
		set.Labels = append(set.Labels, pcp.Label{Name: uint16(nameOff), NameLen: uint8(len(name) - 2),
			Flags: labels[k].flags, Value: uint16(valueOff), ValueLen: uint16(len(labels[k].value))})
	}
	b.WriteByte('}')
	set.JSON = b.String()
	set.NLabels = int32(len(set.Labels))
	return set, nil
}
