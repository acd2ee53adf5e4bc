package hostlabels

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// machineIDPath is the one file libpcp reads the machine id from. PCP
// 6.0.3 does not fall back to dbus's copy (/var/lib/dbus/machine-id):
// without this file it labels the host "localmachine", and so must we.
const machineIDPath = "/etc/machine-id"

// maxMachineIDLen is libpcp's MAXMACHINEIDLEN, the size of the buffer the
// id is copied into, its terminating NUL included.
const maxMachineIDLen = 256

// readMachineID reads a machine id file as libpcp's getmachineid does:
// its first whitespace-separated word, cut to what libpcp's buffer holds;
// "localmachine" when the file cannot be read or holds no word.
func readMachineID(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "localmachine"
	}
	// fscanf's %s skips and stops at C's isspace characters.
	words := strings.FieldsFunc(string(b), func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r'
	})
	if len(words) == 0 {
		return "localmachine"
	}
	id := words[0]
	if len(id) > maxMachineIDLen-1 {
		id = id[:maxMachineIDLen-1]
	}
	return id
}

// machineID reads the host's machine id as PCP does, hashed when
// labels.conf's [global] section sets machineid_hash to sha256; it
// returns the label's name and value.
func machineID(sysconf string) (string, string) {
	id := readMachineID(machineIDPath)
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
