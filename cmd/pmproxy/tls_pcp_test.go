package main

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/internal/testing/tlstest"
)

// tlsSetup is a test's certificates, an empty tls.conf named by
// PCP_TLSCONF_PATH (so that pmproxy.conf's keys decide, as on a Debian
// host), and the test binary as our pmproxy's companion.
func tlsSetup(t *testing.T) (tlstest.Files, []string) {
	t.Helper()
	f := tlstest.Certs(t)
	tlsconf := filepath.Join(t.TempDir(), "tls.conf")
	if err := os.WriteFile(tlsconf, []byte("# nothing set\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PCP_TLSCONF_PATH", tlsconf)
	tlstest.Companion(t)
	return f, []string{"PCP_TLSCONF_PATH=" + tlsconf}
}

// TestTLSLikePCP starts PCP 6.0.3's pmproxy and ours with one
// pmproxy.conf naming a certificate and key, and requires the same
// answers over TLS (Go's client trusting the test's CA) and over plain
// HTTP on the same port, for /pmapi/context, /pmapi/metric and /metrics
// of a private pmcd; a client certificate given or not, with authority
// set or not, required by tls.conf's tls-verify-clients or not (the same
// handshakes refused); the same TLS log lines but the library's name;
// and, with secure.enabled false, the same refusal of a TLS client.
func TestTLSLikePCP(t *testing.T) {
	pcptest.NeedTool(t, "pmproxy")
	f, env := tlsSetup(t)
	bed := testbed.StartPMCD(t, testbed.Options{})
	h := bed.Host()
	paths := []string{"/pmapi/context?hostspec=" + h, "/pmapi/metric?hostspec=" + h + "&names=sample.long.one",
		"/metrics?hostspec=" + h + "&names=sample.long.one"}
	keys := "[pmproxy]\ncertificates = " + f.Cert + "\nprivate_key = " + f.Key + "\n"
	verify := filepath.Join(t.TempDir(), "tls.conf")
	if err := os.WriteFile(verify, []byte("tls-verify-clients = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, conf string
		client     []tls.Certificate
		// tls: TLS is on and the client's handshake succeeds
		tls bool
		// tlsconf: PCP_TLSCONF_PATH's file instead of the empty one
		tlsconf string
	}{
		{"certificate and key", keys, nil, true, ""},
		{"client certificate", keys + "authority = " + f.CA + "\n", []tls.Certificate{f.Client}, true, ""},
		{"authority, no client certificate", keys + "authority = " + f.CA + "\n", nil, true, ""},
		{"client certificate, no authority", keys, []tls.Certificate{f.Client}, false, ""},
		{"client certificate required", keys + "authority = " + f.CA + "\n", []tls.Certificate{f.Client}, true, verify},
		{"client certificate required, none", keys + "authority = " + f.CA + "\n", nil, false, verify},
		{"secure.enabled false", keys + "secure.enabled = false\n", nil, false, ""},
		{"cipher list and suites", keys + "cipher_list = ECDHE+AESGCM;!aRSA\ncipher_suites = TLS_AES_256_GCM_SHA384:TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256\n", nil, true, ""},
		// OpenSSL looks a directory's authorities up by the names
		// c_rehash gives them (subject hash, '.', a number) only
		{"authority directory, hashed names", keys, []tls.Certificate{f.Client}, true, caDir(t, f.CA, true)},
		{"authority directory, other names", keys, []tls.Certificate{f.Client}, false, caDir(t, f.CA, false)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.tlsconf == "-" {
				pcptest.Missing(t, "openssl, to name the authority by its hash, is not installed")
			}
			conf := c.conf + "[redis]\nenabled = false\n"
			env := env
			if c.tlsconf != "" {
				env = []string{"PCP_TLSCONF_PATH=" + c.tlsconf}
				t.Setenv("PCP_TLSCONF_PATH", c.tlsconf)
			}
			pcps, pcpLog := startPCPConf(t, conf, env)
			if !strings.Contains(c.conf, "secure.enabled = false") {
				// PCP's takes TLS once its loop has set it up,
				// after it listens: a TLS client before is closed
				waitLog(t, pcpLog, "Info: OpenSSL")
			}
			dir := t.TempDir()
			ours := startOursAt(t, conf, t.TempDir(), dir)
			client := tlsClient(f, c.client)
			defer client.CloseIdleConnections()
			for _, p := range paths {
				ws, wb, werr := answer(t, client, "https://"+pcps+p)
				gs, gb, gerr := answer(t, client, "https://"+ours+p)
				if c.tls && (werr != nil || gerr != nil) {
					t.Fatalf("GET %s over TLS: ours %v, PCP's %v", p, gerr, werr)
				}
				if (werr == nil) != (gerr == nil) || ws != gs || wb != gb {
					t.Errorf("GET %s over TLS: ours %d %q (%v), PCP's %d %q (%v)", p, gs, gb, gerr, ws, wb, werr)
				}
				ws, wb, werr = answer(t, http.DefaultClient, "http://"+pcps+p)
				gs, gb, gerr = answer(t, http.DefaultClient, "http://"+ours+p)
				if werr != nil || gerr != nil || ws != gs || wb != gb {
					t.Errorf("GET %s: ours %d %q (%v), PCP's %d %q (%v)", p, gs, gb, gerr, ws, wb, werr)
				}
			}
			if strings.Contains(c.conf, "secure.enabled = false") {
				return
			}
			want := tlsLines(t, pcpLog)
			if got := tlsLines(t, filepath.Join(dir, "pmproxy.log")); got != want {
				t.Errorf("TLS lines logged: ours\n%s\nPCP's\n%s", got, want)
			}
		})
	}
}

// tlsClient trusts the test's CA and offers certs. It keeps its
// connections alive: PCP's pmproxy closes a TLS connection that asks
// for "Connection: close" before its answer is sent (docs/pmproxy.md).
func tlsClient(f tlstest.Files, certs []tls.Certificate) *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: f.Pool, Certificates: certs},
	}}
}

// contextID is the number that differs between two pmproxies' answers.
var contextID = regexp.MustCompile(`"context":[0-9]+`)

// answer is a GET's status and body (its context number masked), tried
// for a minute while the server is not yet listening.
func answer(t *testing.T, c *http.Client, url string) (int, string, error) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		r, err := c.Get(url)
		if err == nil {
			b, err := io.ReadAll(r.Body)
			r.Body.Close()
			return r.StatusCode, contextID.ReplaceAllString(string(b), `"context":N`), err
		}
		var op *net.OpError
		if !errors.As(err, &op) || op.Op != "dial" || time.Now().After(deadline) {
			return 0, "", err
		}
	}
}

// libraryName is the TLS library as the log names it: OpenSSL's version
// in PCP's, crypto/tls and Go's version in ours.
var libraryName = regexp.MustCompile(`OpenSSL [0-9.]+[a-z]*|Go crypto/tls \([^)]*\)`)

// tlsLines is a log's lines about TLS, without their time and process,
// the library's name replaced.
func tlsLines(t *testing.T, path string) string {
	t.Helper()
	var out []string
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out = out[:0]
		for _, l := range strings.Split(string(b), "\n") {
			_, l, ok := strings.Cut(l, ") ")
			if !ok || !strings.HasPrefix(l, "Info: ") && !strings.HasPrefix(l, "Error: ") {
				continue // not a stamped line
			}
			if strings.Contains(l, "TLS") || strings.Contains(l, "OpenSSL") || strings.Contains(l, "crypto/tls") ||
				strings.Contains(l, "Cannot") || strings.Contains(l, "cipher") {
				out = append(out, libraryName.ReplaceAllString(l, "LIBRARY"))
			}
		}
		// PCP's sets TLS up once it serves: its lines come after
		// the port table, perhaps after the test's requests
		if len(out) > 0 || time.Now().After(deadline) {
			return strings.Join(out, "\n")
		}
	}
}

// TestTLSFailuresLikePCP runs PCP's pmproxy and ours with TLS
// configurations PCP's ends on: the same exit status and TLS lines.
func TestTLSFailuresLikePCP(t *testing.T) {
	bin := pcptest.NeedTool(t, "pmproxy")
	f, env := tlsSetup(t)
	for _, c := range []struct {
		name, conf string
		env        []string
	}{
		{"certificate missing", "certificates = /nonexistent/cert.pem\nprivate_key = " + f.Key, nil},
		{"certificate not one", "certificates = " + f.Key + "\nprivate_key = " + f.Key, nil},
		{"key not one", "certificates = " + f.Cert + "\nprivate_key = " + f.Cert, nil},
		{"key not the certificate's", "certificates = " + f.Cert + "\nprivate_key = " + f.OtherKey, nil},
		{"no key", "certificates = " + f.Cert, nil},
		{"no certificate", "private_key = " + f.Key, nil},
		{"authority not one", "certificates = " + f.Cert + "\nprivate_key = " + f.Key + "\nauthority = " + f.Key, nil},
		{"cipher list", "certificates = " + f.Cert + "\nprivate_key = " + f.Key + "\ncipher_list = NOSUCH", nil},
		{"cipher suites", "certificates = " + f.Cert + "\nprivate_key = " + f.Key + "\ncipher_suites = NOSUCH:TLS_AES_128_GCM_SHA25", nil},
		{"no tls.conf", "", []string{"PCP_TLSCONF_PATH=/nonexistent/tls.conf"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			conf := "[pmproxy]\n" + c.conf + "\n[redis]\nenabled = false\n"
			dir := t.TempDir()
			for _, d := range []string{"pcp", "ours"} {
				if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			cpath := filepath.Join(dir, "pmproxy.conf")
			if err := os.WriteFile(cpath, []byte(conf), 0o644); err != nil {
				t.Fatal(err)
			}
			args := func(d string) []string {
				return []string{"-f", "-p", "0", "-c", cpath, "-l", filepath.Join(dir, d, "pmproxy.log"), "-s", filepath.Join(dir, d, "sock")}
			}
			ctx, cancel := context.WithTimeout(context.Background(), testbed.RunTimeout)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, append([]string{"-A"}, args("pcp")...)...)
			cmd.Env = append(append(os.Environ(), env...), "PCP_RUN_DIR="+filepath.Join(dir, "pcp"), "PCP_TMP_DIR="+filepath.Join(dir, "pcp"))
			cmd.Env = append(cmd.Env, c.env...)
			pcpErr := cmd.Run()
			for _, e := range c.env {
				k, v, _ := strings.Cut(e, "=")
				t.Setenv(k, v)
			}
			t.Setenv("PCP_TMP_DIR", filepath.Join(dir, "ours"))
			oursErr := run(ctx, args("ours"), make(chan net.Addr, 1))
			var ex *exec.ExitError
			var our exitError
			if !errors.As(pcpErr, &ex) || !errors.As(oursErr, &our) || ex.ExitCode() != int(our) {
				t.Errorf("ours ended with %v, PCP's with %v", oursErr, pcpErr)
			}
			want := tlsLines(t, filepath.Join(dir, "pcp", "pmproxy.log"))
			if got := tlsLines(t, filepath.Join(dir, "ours", "pmproxy.log")); got != want {
				t.Errorf("TLS lines logged: ours\n%s\nPCP's\n%s", got, want)
			}
		})
	}
}

// caDir is a tls.conf naming a directory of authorities (tls-ca-cert-dir)
// holding ca: named by its subject hash as OpenSSL's c_rehash names it
// (openssl x509 -hash; "-" when there is no openssl), or ca.pem.
func caDir(t *testing.T, ca string, hashed bool) string {
	t.Helper()
	dir := t.TempDir()
	name := "ca.pem"
	if hashed {
		out, err := exec.Command("openssl", "x509", "-hash", "-noout", "-in", ca).Output()
		if err != nil {
			return "-"
		}
		name = strings.TrimSpace(string(out)) + ".0"
	}
	if err := os.Symlink(ca, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "tls.conf")
	if err := os.WriteFile(conf, []byte("tls-ca-cert-dir = "+dir+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return conf
}
