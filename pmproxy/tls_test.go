package pmproxy

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestReadTLSSettings: when PCP's pmproxy turns TLS on, and with what,
// by secure.enabled, tls.conf (present, setting a certificate or not,
// missing) and pmproxy.conf's keys, read in setup_secure_module.
func TestReadTLSSettings(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.conf")
	withCert := filepath.Join(dir, "cert.conf")
	missing := filepath.Join(dir, "missing.conf")
	os.WriteFile(empty, []byte("# nothing\n"), 0o644)
	os.WriteFile(withCert, []byte("tls-cert-file = /c.pem\ntls-key-file=/k.pem\ntls-verify-clients: true\n"), 0o644)
	keys := Conf{"pmproxy.certificates": "/pc.pem", "pmproxy.private_key": "/pk.pem"}
	with := func(c Conf, k, v string) Conf {
		n := Conf{k: v}
		for a, b := range c {
			n[a] = b
		}
		return n
	}
	for _, c := range []struct {
		name    string
		conf    Conf
		tlsconf string
		want    *TLSSettings
	}{
		{"empty tls.conf, no keys", Conf{}, empty, nil},
		{"empty tls.conf, enabled true", Conf{"pmproxy.secure.enabled": "true"}, empty, nil},
		{"tls.conf's certificate", Conf{}, withCert, &TLSSettings{CertFile: "/c.pem", KeyFile: "/k.pem", VerifyClients: "true"}},
		{"tls.conf's certificate, enabled yes", Conf{"pmproxy.secure.enabled": "yes"}, withCert, &TLSSettings{CertFile: "/c.pem", KeyFile: "/k.pem", VerifyClients: "true"}},
		{"tls.conf's certificate, enabled false", Conf{"pmproxy.secure.enabled": "false"}, withCert, nil},
		{"enabled fa", with(keys, "pmproxy.secure.enabled", "fa"), empty, nil},
		{"enabled empty", with(keys, "pmproxy.secure.enabled", ""), empty, nil},
		{"pmproxy.conf's keys over tls.conf's", keys, withCert, &TLSSettings{CertFile: "/pc.pem", KeyFile: "/pk.pem", VerifyClients: "true", Compat: true}},
		{"pmproxy.conf's keys", with(keys, "pmproxy.cipher_list", "HIGH"), empty, &TLSSettings{CertFile: "/pc.pem", KeyFile: "/pk.pem", Ciphers: "HIGH", Compat: true}},
		{"no tls.conf: on, and nothing to load", Conf{}, missing, &TLSSettings{Compat: true}},
		{"no tls.conf, enabled tr", Conf{"pmproxy.secure.enabled": "tr"}, missing, &TLSSettings{Compat: true}},
		{"no tls.conf, enabled yes", Conf{"pmproxy.secure.enabled": "yes"}, missing, nil},
		{"no tls.conf, enabled yes, keys", with(keys, "pmproxy.secure.enabled", "yes"), missing, nil},
		{"no PCP_TLSCONF_PATH", Conf{}, "", nil},
		{"no PCP_TLSCONF_PATH, keys", keys, "", &TLSSettings{CertFile: "/pc.pem", KeyFile: "/pk.pem", Compat: true}},
	} {
		got, err := ReadTLSSettings(c.conf, c.tlsconf)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

// tlsConfCases are tls.conf texts whose reading by libpcp's
// __pmGetSecureConfig TestTLSConfLikePCP compares, with what the test
// expects of it.
var tlsConfCases = []struct {
	text string
	want TLSSettings
}{
	{"tls-cert-file = /a\ntls-key-file = /b\n", TLSSettings{CertFile: "/a", KeyFile: "/b"}},
	{"  tls-cert-file:/a   # comment\n#tls-key-file = /b\n", TLSSettings{CertFile: "/a"}},
	{"tls-c = /prefix\n", TLSSettings{CertFile: "/prefix"}},
	{"= /nokeyword\n", TLSSettings{CertFile: "/nokeyword"}},
	{"tls-cert-file /spaceonly\n", TLSSettings{}},
	{"tls-cert-file = /no-newline", TLSSettings{}},
	{"tls-cert-file = ab\ntls-ciphers = HIGH:!aNULL extra\n", TLSSettings{CertFile: "ab", Ciphers: "HIGH:!aNULL"}},
	{"tls-ciphersuites=TLS_AES_128_GCM_SHA256\ntls-ca-cert-dir = /d\ntls-ca-cert-file = /f\n", TLSSettings{CipherSuites: "TLS_AES_128_GCM_SHA256", CADir: "/d", CAFile: "/f"}},
	{"tls-cert-file x = y\n", TLSSettings{CertFile: "y"}},
	{"tls-cert-filex = /longer\ntls-client-cert-file = /client\n", TLSSettings{}},
	{"tls-cert-file = #\ntls-key-file =\n", TLSSettings{}},
	{"tls-cert-file = /first\ntls-cert-file = /second\n", TLSSettings{CertFile: "/second"}},
	{"tls-verify-clients = yes\n\n\t\n", TLSSettings{VerifyClients: "yes"}},
}

func TestParseTLSConf(t *testing.T) {
	for _, c := range tlsConfCases {
		var got TLSSettings
		parseTLSConf([]byte(c.text), &got)
		if got != c.want {
			t.Errorf("%q: got %+v, want %+v", c.text, got, c.want)
		}
	}
}

func FuzzParseTLSConf(f *testing.F) {
	for _, c := range tlsConfCases {
		f.Add([]byte(c.text))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s TLSSettings
		parseTLSConf(data, &s)
		for _, v := range []string{s.CertFile, s.KeyFile, s.CAFile, s.CADir, s.Ciphers, s.CipherSuites, s.VerifyClients} {
			if len(v) > tlsConfLine {
				t.Fatalf("value of %d bytes from lines of at most %d", len(v), tlsConfLine)
			}
		}
	})
}

// TestTLSConfLikePCP reads each of tlsConfCases with PCP's own parser:
// PCP's pmproxy with -Dtls logs every keyword and value libpcp takes
// from PCP_TLSCONF_PATH's file (and then ends, its certificate missing);
// ours must take the same.
func TestTLSConfLikePCP(t *testing.T) {
	bin := pcptest.NeedTool(t, "pmproxy")
	dir := t.TempDir()
	conf := filepath.Join(dir, "pmproxy.conf")
	// no Redis: PCP's would look for one on localhost:6379, not ours
	if err := os.WriteFile(conf, []byte("[pmproxy]\ncertificates = /nonexistent/cert.pem\n[redis]\nenabled = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, c := range tlsConfCases {
		tlsconf := filepath.Join(dir, "tls.conf")
		logPath := filepath.Join(dir, "pmproxy"+strconv.Itoa(i)+".log")
		if err := os.WriteFile(tlsconf, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), testbed.RunTimeout)
		cmd := exec.CommandContext(ctx, bin, "-Dtls", "-f", "-A", "-p", "0", "-c", conf, "-l", logPath)
		cmd.Env = append(os.Environ(), "PCP_TLSCONF_PATH="+tlsconf, "PCP_RUN_DIR="+dir, "PCP_TMP_DIR="+dir)
		err := cmd.Run()
		cancel()
		if err == nil {
			t.Fatalf("%q: PCP's pmproxy did not end on its missing certificate", c.text)
		}
		data, err := os.ReadFile(logPath)
		if err != nil {
			t.Fatal(err)
		}
		var pcps TLSSettings
		fields := map[string]*string{
			"tls-cert-file": &pcps.CertFile, "tls-key-file": &pcps.KeyFile, "tls-ciphers": &pcps.Ciphers,
			"tls-ciphersuites": &pcps.CipherSuites, "tls-ca-cert-file": &pcps.CAFile, "tls-ca-cert-dir": &pcps.CADir,
			"tls-verify-clients": &pcps.VerifyClients,
		}
		for _, l := range strings.Split(string(data), "\n") {
			kv, ok := strings.CutPrefix(l, "__pmGetSecureConfig: ")
			if !ok {
				continue
			}
			k, v, _ := strings.Cut(kv, " = ")
			if f := fields[k]; f != nil {
				*f = v
			}
		}
		var ours TLSSettings
		parseTLSConf([]byte(c.text), &ours)
		if ours != pcps {
			t.Errorf("%q: ours %+v, PCP's %+v", c.text, ours, pcps)
		}
		if pcps != c.want {
			t.Errorf("%q: PCP's %+v, the test expects %+v", c.text, pcps, c.want)
		}
	}
}
