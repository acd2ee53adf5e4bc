package series

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/series/resp"
)

// TestAuthAsPCP: a Redis that wants a password (requirepass) or a user and
// password (an ACL user) is reached with the credentials pmseries.conf
// gives in either of libpcp_web 6.0.3's places ([redis] username and
// password, [pmseries] auth.username and auth.password). What ours loads
// there, PCP's pmseries given the same file finds: the same series for
// the same query. Without credentials both are refused.
func TestAuthAsPCP(t *testing.T) {
	bin := pcptest.NeedTool(t, "pmseries")
	ctx := context.Background()
	for _, c := range []struct{ name, conf string }{
		{"password", "[redis]\npassword = s3cret\n"},
		{"user", "[pmseries]\nenabled = true\nauth.username = pcp\nauth.password = pw\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := redistest.Start(t)
			admin := client(t, srv)
			redisDo(t, admin, "ACL", "SETUSER", "pcp", "on", ">pw", "~*", "+@all")
			redisDo(t, admin, "CONFIG", "SET", "requirepass", "s3cret")
			conf := filepath.Join(t.TempDir(), "pmseries.conf")
			if err := os.WriteFile(conf, []byte(c.conf), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := ParseConfig(strings.NewReader(c.conf))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Connect(ctx, []string{srv.Addr()}, resp.Options{}); !errors.Is(err, ErrRedis) || !strings.Contains(err.Error(), "NOAUTH") {
				t.Errorf("without credentials: %v, want Redis's NOAUTH", err)
			}
			rc, err := Connect(ctx, []string{srv.Addr()}, cfg.RedisOptions())
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			if _, err := Load(ctx, rc, filepath.Join(qaArchives, "omnibus_v3"), LoadOptions{}); err != nil {
				t.Fatal(err)
			}
			res, err := NewStore(rc).Query(ctx, "sample.colour")
			if err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(bin, "-c", conf, "-p", strconv.Itoa(srv.Port), "sample.colour").CombinedOutput()
			if err != nil {
				t.Fatalf("PCP's pmseries: %v\n%s", err, out)
			}
			theirs := strings.Fields(string(out))
			slices.Sort(theirs)
			ours := slices.Clone(res.Series)
			slices.Sort(ours)
			if len(ours) == 0 || !slices.Equal(ours, theirs) {
				t.Errorf("series of sample.colour: ours %q, PCP's pmseries %q", ours, theirs)
			}
			noAuth := filepath.Join(t.TempDir(), "none.conf")
			os.WriteFile(noAuth, []byte("[pmseries]\nenabled = true\n"), 0o644)
			out, _ = exec.Command(bin, "-c", noAuth, "-p", strconv.Itoa(srv.Port), "sample.colour").CombinedOutput()
			if !strings.Contains(string(out), "NOAUTH") {
				t.Errorf("PCP's pmseries without credentials: %s", out)
			}
			t.Logf("%d series alike; PCP's pmseries without credentials: %s", len(ours), strings.TrimSpace(string(out)))
		})
	}
}
