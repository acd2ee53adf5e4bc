package pmlogger

import (
	"context"
	"net"
	"os"
	"strings"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// SetClientID tells pmcd who this client is, as libpcp's
// __pmSetClientIdArgv does for pmlogger: it stores "HOST (ADDRESS) ARGV"
// into pmcd.client.whoami, HOST and ADDRESS being this host's name as its
// first address resolves back, and that address. pminfo -f
// pmcd.client.whoami then shows the logger's command line.
func SetClientID(ctx context.Context, src pmapi.Source, argv []string) error {
	pmid, err := src.LookupName(ctx, "pmcd.client.whoami")
	if err != nil {
		return err
	}
	host, _ := os.Hostname()
	who := host + " "
	if ips, err := net.DefaultResolver.LookupIPAddr(ctx, host); err == nil && len(ips) > 0 {
		ip := ips[0].IP.String()
		if names, err := net.DefaultResolver.LookupAddr(ctx, ip); err == nil && len(names) > 0 {
			host = strings.TrimSuffix(names[0], ".")
		}
		who = host + " (" + ip + ") "
	}
	who += strings.Join(argv, " ")
	v, valfmt, err := pmapi.StuffValue(pcp.Atom{CP: who}, pcp.TypeString, pcp.InstNull)
	if err != nil {
		return err
	}
	return src.Store(ctx, &pcp.Result{Sets: []pcp.ValueSet{{PMID: pmid, NumVal: 1, ValFmt: valfmt, Values: []pcp.Value{v}}}})
}
