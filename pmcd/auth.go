package pmcd

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// saslConf is where PCP's pmcd finds its SASL mechanisms.
const saslConf = "/etc/sasl2/pmcd.conf"

// authMechanisms is the mechanism list pmcd offers a client that must
// authenticate: the mech_list of PCP's SASL configuration, upper case and
// space separated as SASL lists it.
func authMechanisms() string {
	f, err := os.Open(saslConf)
	if err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "mech_list:"); ok {
				if m := strings.Fields(strings.ToUpper(rest)); len(m) > 0 {
					return strings.Join(m, " ")
				}
			}
		}
	}
	return "PLAIN"
}

// negotiate is what PCP's pmcd does with the features a client asked for
// in its CREDS: a client that must prove who it is (it asked for
// authentication, or access control needs credentials that a TCP client
// lacks) is sent the SASL mechanism list. This pmcd has no SASL, so any
// attempt to go on fails with PM_ERR_PERMISSION; a client without
// credentials of its own gives up first, as it would with PCP's pmcd.
func (c *client) negotiate(ctx context.Context, flags pdu.Flags) error {
	if flags == 0 {
		return nil
	}
	if flags&pdu.FlagCredsReqd != 0 {
		if c.id.HasCreds {
			return nil
		}
		flags |= pdu.FlagAuth
	}
	if flags&pdu.FlagAuth == 0 {
		return nil
	}
	c.s.countOut(pdu.TypeAttr)
	c.wmu.Lock()
	err := c.w.WriteMessage(ctx, &pdu.Attr{Key: pdu.AttrNone, Value: []byte(authMechanisms())}, 0)
	c.wmu.Unlock()
	if err != nil {
		return err
	}
	if _, err := c.r.ReadPDU(ctx); err != nil {
		return err
	}
	c.s.countIn(pdu.TypeAttr)
	return fmt.Errorf("authentication is not supported: %w", pcp.ErrPermission)
}
