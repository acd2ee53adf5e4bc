package hostlabels

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// machineID reads the host's machine id as PCP does, hashed when
// labels.conf's [global] section sets machineid_hash to sha256; it
// returns the label's name and value.
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
			break // only [global] counts
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
