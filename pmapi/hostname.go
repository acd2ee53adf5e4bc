package pmapi

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// HostName returns the name of the host the context's pmcd runs on, as
// pmGetContextHostName does: the value of the metric pmcd.hostname, or
// when that cannot be had, this machine's name for a Unix socket or a
// host name starting with "localhost", else the host name of the
// specification. The name is always set; the error says why
// pmcd.hostname could not be fetched, and callers that want PCP's
// behaviour ignore it.
func (c *HostContext) HostName(ctx context.Context) (string, error) {
	name, err := c.pmcdHostName(ctx)
	if err == nil {
		return name, nil
	}
	fallback := c.spec.Hosts[0].Name
	if c.spec.Kind != HostTCP || strings.HasPrefix(fallback, "localhost") {
		fallback, _ = os.Hostname()
	}
	return fallback, fmt.Errorf("pmapi: HostName: %w", err)
}

func (c *HostContext) pmcdHostName(ctx context.Context) (string, error) {
	pmids, err := c.lookupNames(ctx, []string{"pmcd.hostname"})
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var r pcp.Result
	if _, err := c.fetchLocked(ctx, pmids, &r); err != nil {
		return "", err
	}
	if len(r.Sets) != 1 {
		return "", fmt.Errorf("%w: %d value sets for one metric", pcp.ErrIPC, len(r.Sets))
	}
	set := r.Sets[0]
	if set.NumVal <= 0 || set.ValFmt == pcp.ValInSitu {
		if err := set.Err(); err != nil {
			return "", err
		}
		return "", fmt.Errorf("pmcd.hostname: %w", pcp.ErrValue)
	}
	data := set.Values[0].Block.Data
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	return string(data), nil
}
