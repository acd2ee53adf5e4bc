package pmproxy

import "strings"

// Conf is pmproxy.conf(5) as read: "section.key" to value, with the
// settings this pmproxy acts on. cmd/pmproxy reads it from the files
// libpcp_web's pmIniFileSetup reads for -c's name (series.IniFiles,
// series.ReadIniFiles).
type Conf map[string]string

// Bool is a setting's truth ("true", "yes", "on" or "1"), def when unset.
func (c Conf) Bool(key string, def bool) bool {
	v, ok := c[key]
	if !ok {
		return def
	}
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1":
		return true
	}
	return false
}
