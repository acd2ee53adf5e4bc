package pmapi

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// TimeZone returns the time zone of the host pmcd runs on, as
// pmNewContextZone finds it: the value of pmcd.zoneinfo (":Area/City")
// when pmcd has it, else pmcd.timezone (a POSIX TZ string). Neither
// having a value is pcp.ErrValue.
func (c *HostContext) TimeZone(ctx context.Context) (string, error) {
	pmids, err := c.LookupNames(ctx, []string{"pmcd.timezone", "pmcd.zoneinfo"})
	if err != nil && (len(pmids) != 2 || (pmids[0] == pcp.PMIDNull && pmids[1] == pcp.PMIDNull)) {
		return "", fmt.Errorf("pmapi: TimeZone: %w", err)
	}
	var r pcp.Result
	if _, err := c.Fetch(ctx, pmids, &r); err != nil {
		return "", fmt.Errorf("pmapi: TimeZone: %w", err)
	}
	for _, i := range []int{1, 0} {
		if s := &r.Sets[i]; s.NumVal == 1 && s.ValFmt != pcp.ValInSitu {
			data := s.Values[0].Block.Data
			if n := bytes.IndexByte(data, 0); n >= 0 {
				data = data[:n]
			}
			return string(data), nil
		}
	}
	return "", fmt.Errorf("pmapi: TimeZone: %w", pcp.ErrValue)
}

// LocalZone returns this machine's time zone as PCP names it, as
// pmNewContextZone does for a local context, given $TZ's value as the
// caller read it ("" when unset): that value when it is set and not a
// file name, else the zone /etc/localtime links to (":Area/City"), else
// "UTC".
func LocalZone(tz string) string {
	if tz != "" && !strings.HasPrefix(tz, ":") {
		return tz
	}
	if target, err := os.Readlink("/etc/localtime"); err == nil {
		if _, zone, ok := strings.Cut(filepath.ToSlash(target), "zoneinfo/"); ok {
			return ":" + zone
		}
	}
	return "UTC"
}
