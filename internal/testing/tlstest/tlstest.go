// Package tlstest is for tests of pmproxy's TLS: throwaway certificates
// written to a test's directory, and the test binary standing in for the
// companion cmd/pmproxytls (so that a test needs no build of it).
package tlstest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pmproxy/tlsrelay"
)

// Files are a CA's certificate, a server's certificate and key for
// localhost (and 127.0.0.1, ::1) signed by it, a client's signed by it,
// and a key that is not the server's, all PEM.
type Files struct {
	CA, Cert, Key, ClientCert, ClientKey, OtherKey string
	// Pool holds the CA, for clients' RootCAs.
	Pool *x509.CertPool
	// Client is the client's certificate for tls.Config.Certificates.
	Client tls.Certificate
}

// Certs makes Files in t's temporary directory.
func Certs(t testing.TB) Files {
	t.Helper()
	dir := t.TempDir()
	caKey := newKey(t)
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "gopcp test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	f := Files{Pool: x509.NewCertPool()}
	f.Pool.AddCert(caCert)
	f.CA = write(t, dir, "ca.pem", "CERTIFICATE", caDER)
	leaf := func(name string, serial int64, usage x509.ExtKeyUsage) (cert, key string, pair tls.Certificate) {
		k := newKey(t)
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "localhost"},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
			DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &k.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		kder, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		cert = write(t, dir, name+".pem", "CERTIFICATE", der)
		key = write(t, dir, name+"-key.pem", "PRIVATE KEY", kder)
		pair, err = tls.LoadX509KeyPair(cert, key)
		if err != nil {
			t.Fatal(err)
		}
		return cert, key, pair
	}
	f.Cert, f.Key, _ = leaf("server", 2, x509.ExtKeyUsageServerAuth)
	f.ClientCert, f.ClientKey, f.Client = leaf("client", 3, x509.ExtKeyUsageClientAuth)
	other, err := x509.MarshalPKCS8PrivateKey(newKey(t))
	if err != nil {
		t.Fatal(err)
	}
	f.OtherKey = write(t, dir, "other-key.pem", "PRIVATE KEY", other)
	return f
}

func newKey(t testing.TB) *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func write(t testing.TB, dir, name, typ string, der []byte) string {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// companion is the name the test binary answers to as the companion.
const companion = "pmproxytls"

// MainIfCompanion runs the companion and exits when the test binary was
// started as it (by the link Companion makes); call it first in
// TestMain.
func MainIfCompanion() {
	if filepath.Base(os.Args[0]) == companion {
		os.Exit(tlsrelay.Main(os.Args[1:], os.Stdout))
	}
}

// Companion puts a link named pmproxytls to the test binary first in
// $PATH for the test, where pmproxy looks for its companion.
func Companion(t *testing.T) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(self, filepath.Join(dir, companion)); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}
