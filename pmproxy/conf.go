package pmproxy

// Conf is pmproxy.conf(5) as read: "section.key" to value, with the
// settings this pmproxy acts on. cmd/pmproxy reads it from the files
// libpcp_web's pmIniFileSetup reads for -c's name (series.IniFiles,
// series.ReadIniFiles).
type Conf map[string]string

// On is a switch PCP's pmproxy turns on by the exact word "true" ([pmseries],
// [discover] enabled): unset, "yes", "on", "1" or "True" leave it off.
func (c Conf) On(key string) bool { return c[key] == "true" }

// Off is a switch PCP's pmproxy turns off only by the exact word "false"
// ([redis] enabled): unset, "no", "off", "0" or "False" leave it on.
func (c Conf) Off(key string) bool { return c[key] == "false" }
