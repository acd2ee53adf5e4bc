package pmns

import "github.com/gopcp/gopcp/internal/pcpconf"

// varDir is $PCP_VAR_DIR as pmGetConfig gives it to pmcpp and libpcp: the
// environment first, then pcp.conf, then PCP's usual value.
func varDir() string {
	if d, ok := pcpconf.Get("PCP_VAR_DIR"); ok {
		return d
	}
	return "/var/lib/pcp"
}
