package testbed

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// SASL is a private Cyrus SASL configuration for a PCP pmcd: a
// pmcd.conf naming the mechanisms and a sasldb of its own, which pmcd
// finds through SASL_CONF_PATH (never /etc/sasl2), and an [access]
// section that demands authentication over TCP.
type SASL struct {
	// Dir holds pmcd.conf and the sasldb.
	Dir string
	// User is this process's user name, the SASL user made (pmcd maps
	// an authenticated name to a local account), and Password its
	// password.
	User, Password string

	tool string // saslpasswd2
}

// NewSASL makes a SASL configuration offering mechs (mech_list, in
// SASL's names: "plain login scram-sha-256", PCP's own list) with one
// user, this process's, whose password is password. A missing
// saslpasswd2 (Debian's sasl2-bin) skips the test, or fails it under
// GOPCP_REQUIRE_PCP=1, as a missing PCP does.
func NewSASL(t testing.TB, mechs, password string) *SASL {
	t.Helper()
	tool, err := exec.LookPath("saslpasswd2")
	if err != nil {
		tool = "/usr/sbin/saslpasswd2"
		if _, serr := os.Stat(tool); serr != nil {
			missing(t, fmt.Errorf("%w: saslpasswd2 (sasl2-bin): %v", ErrNotInstalled, err))
		}
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	s := &SASL{Dir: t.TempDir(), User: u.Username, Password: password}
	db := filepath.Join(s.Dir, "passwd.db")
	conf := "mech_list: " + mechs + "\nsasldb_path: " + db + "\n"
	if err := os.WriteFile(filepath.Join(s.Dir, "pmcd.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	s.tool = tool
	s.AddUser(t, s.User, password)
	return s
}

// AddUser adds a user to the sasldb (pmcd maps it to the local account
// of that name, which the bed's [access] does not allow).
func (s *SASL) AddUser(t testing.TB, name, password string) {
	t.Helper()
	cmd := exec.Command(s.tool, "-p", "-c", "-f", filepath.Join(s.Dir, "passwd.db"), "-a", "pmcd", name)
	cmd.Stdin = strings.NewReader(password)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("saslpasswd2: %v\n%s", err, out)
	}
}

// Options are a bed's options for a pmcd using this configuration:
// SASL_CONF_PATH, an [access] section allowing only this user (which
// makes pmcd demand credentials of TCP clients) from localhost, and the
// start-up probe over the Unix socket, where pmcd reads the prober's
// credentials itself.
func (s *SASL) Options() Options {
	return Options{
		Env:       []string{"SASL_CONF_PATH=" + s.Dir},
		Access:    "allow user " + s.User + " : all;\nallow hosts localhost : all;",
		ReadyHost: "unix:",
	}
}
