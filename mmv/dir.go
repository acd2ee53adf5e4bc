package mmv

import (
	"path/filepath"

	"github.com/gopcp/gopcp/internal/pcpconf"
)

// DefaultDir is the directory pmdammv reads, $PCP_TMP_DIR/mmv, with
// PCP_TMP_DIR resolved as libpcp resolves it: from the environment when
// set there, else from pcp.conf ($PCP_CONF, $PCP_DIR/etc/pcp.conf or
// /etc/pcp.conf). It reads the process environment and a file, which is
// why Options take the directory instead: call this at the program's
// edge. libpcp_mmv writes there when given a bare file name.
func DefaultDir() (string, error) {
	tmp, ok := pcpconf.Get("PCP_TMP_DIR")
	if !ok || tmp == "" {
		return "", errorf(ErrInvalid, "PCP_TMP_DIR", "not set in the environment or pcp.conf")
	}
	return filepath.Join(tmp, "mmv"), nil
}
