// Package tlsrelay is pmproxy's TLS companion (cmd/pmproxytls): it
// loads the certificate, key and client authorities PCP's pmproxy would
// (Load, failing with PCP's log lines), then takes the TLS connections
// pmproxy hands it over a Unix socket, does each handshake with
// crypto/tls and relays the plaintext to the socket pair's end pmproxy
// serves (Serve). It is apart from package pmproxy so that a pmproxy
// without TLS links no crypto/tls.
package tlsrelay

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Files are the settings Load reads, as pmproxy passes them (empty: not
// given).
type Files struct {
	CertFile, KeyFile, CAFile, CADir string
	Ciphers, CipherSuites            string
	VerifyClients                    string
}

// Version names the TLS library in the lines where PCP's pmproxy names
// OpenSSL's version.
func Version() string { return "Go crypto/tls (" + runtime.Version() + ")" }

// SetupError is a setup that PCP's pmproxy ends on (exit status 1),
// with its log line's level ("Info" or "Error") and text.
type SetupError struct{ Level, Text string }

func (e *SetupError) Error() string { return e.Level + ": " + e.Text }

// maxPEM bounds each file read (a certificate chain, a key, a CA
// bundle; Debian's whole bundle is 220 KB).
const maxPEM = 8 << 20

// Load makes the server's TLS configuration from f as libpcp's
// __pmSecureServerInit makes OpenSSL's, in its order and with its
// messages: a certificate and a key are required; TLS 1.2 at least; a
// client certificate is asked for and verified against the authorities
// when given (none given: every client certificate fails, as OpenSSL's
// empty store fails it), and required when tls-verify-clients is
// "true". warnings are lines to log as well (cipher_suites that
// crypto/tls cannot restrict).
func Load(f Files) (cfg *tls.Config, warnings []string, err error) {
	if f.CertFile == "" || f.KeyFile == "" {
		what := "certificate file"
		if f.CertFile != "" {
			what = "private key"
		}
		return nil, nil, &SetupError{"Info", Version() + " - no " + what + " found"}
	}
	certPEM, err := readBounded(f.CertFile)
	if err != nil || !hasCertificate(certPEM) {
		return nil, nil, &SetupError{"Error", "Cannot load certificate chain from " + f.CertFile}
	}
	keyPEM, err := readBounded(f.KeyFile)
	if err != nil {
		return nil, nil, &SetupError{"Error", "Cannot load private key from " + f.KeyFile}
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		// a key that is not the certificate's too: OpenSSL's
		// use_PrivateKey_file checks that first
		return nil, nil, &SetupError{"Error", "Cannot load private key from " + f.KeyFile}
	}
	cfg = &tls.Config{
		MinVersion:   tls.VersionTLS12,
		Certificates: []tls.Certificate{pair},
		ClientAuth:   tls.VerifyClientCertIfGiven,
		ClientCAs:    x509.NewCertPool(),
	}
	if f.VerifyClients == "true" {
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
	}
	if f.CAFile != "" || f.CADir != "" {
		if !loadAuthorities(cfg.ClientCAs, f.CAFile, f.CADir) {
			from := f.CAFile
			if from == "" {
				from = f.CADir
			}
			return nil, nil, &SetupError{"Error", "Cannot load the client CA list from " + from}
		}
	}
	if f.Ciphers != "" {
		ids := cipherList(f.Ciphers)
		if len(ids) == 0 {
			return nil, nil, &SetupError{"Error", "Cannot set the cipher list from " + f.Ciphers}
		}
		cfg.CipherSuites = ids
	}
	if f.CipherSuites != "" {
		named, all, ok := cipherSuites(f.CipherSuites)
		if !ok {
			return nil, nil, &SetupError{"Error", "Cannot set the cipher suites from " + f.CipherSuites}
		}
		switch {
		case named == 0:
			// no TLS 1.3 suite left: OpenSSL then speaks TLS 1.2 alone
			cfg.MaxVersion = tls.VersionTLS12
		case !all:
			warnings = append(warnings, "Warning: cipher suites "+f.CipherSuites+": "+Version()+
				" offers all of its TLS 1.3 suites, it cannot be told which")
		}
	}
	return cfg, warnings, nil
}

// readBounded is a file's contents, at most maxPEM bytes.
func readBounded(path string) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxPEM+1))
	if err == nil && len(b) > maxPEM {
		err = errors.New(path + ": too large")
	}
	return b, err
}

// hasCertificate says whether the file's first PEM certificate parses,
// as OpenSSL's use_certificate_chain_file requires.
func hasCertificate(data []byte) bool {
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			return false
		}
		switch b.Type {
		case "CERTIFICATE", "TRUSTED CERTIFICATE", "X509 CERTIFICATE":
			_, err := x509.ParseCertificate(b.Bytes)
			return err == nil
		}
	}
}

// loadAuthorities adds the client authorities of a PEM bundle and of a
// directory's files; as OpenSSL's load_verify_locations, a bundle must
// hold a certificate, a directory is only looked in.
func loadAuthorities(pool *x509.CertPool, file, dir string) bool {
	if file != "" {
		data, err := readBounded(file)
		if err != nil || !pool.AppendCertsFromPEM(data) {
			return false
		}
	}
	if dir != "" {
		addDirectory(pool, dir)
	}
	return true
}

// maxCAFiles bounds the files of a directory of authorities read.
const maxCAFiles = 4096

// addDirectory adds the certificates of dir's regular files (symbolic
// links followed, as /etc/ssl/certs' are) named as OpenSSL's c_rehash
// names them: OpenSSL looks an issuer up by its subject's hash there,
// and never reads a file of another name (a hash that is not its
// certificate's is not checked here). The name is a directory's, not a
// pattern, and a FIFO or device there is not opened, where reading it
// could block pmproxy's start.
func addDirectory(pool *x509.CertPool, dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	entries, _ := d.ReadDir(maxCAFiles)
	d.Close()
	for _, e := range entries {
		if !hashName(e.Name()) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
			continue
		}
		if data, err := readBounded(p); err == nil {
			pool.AppendCertsFromPEM(data)
		}
	}
}

// hashName says whether name is c_rehash's for a certificate: a
// subject hash of eight lower-case hexadecimal digits, '.', and a
// number.
func hashName(name string) bool {
	hash, n, ok := strings.Cut(name, ".")
	if !ok || len(hash) != 8 || n == "" {
		return false
	}
	for _, c := range []byte(hash) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	for _, c := range []byte(n) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
