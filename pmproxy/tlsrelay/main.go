package tlsrelay

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
)

// Main is the companion's program (cmd/pmproxytls, and test binaries
// standing in for it): its options are the settings pmproxy passes
// (pmproxy.TLSSettings), so both ends of that protocol are packages.
// It says "ready" on out once its files are loaded, or the line PCP's
// pmproxy logs for the failure (status 1); then it serves the control
// socket on descriptor 3 until pmproxy closes it.
func Main(args []string, out io.Writer) int {
	var f Files
	fs := flag.NewFlagSet("pmproxytls", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&f.CertFile, "cert", "", "certificate chain (PEM)")
	fs.StringVar(&f.KeyFile, "key", "", "private key (PEM)")
	fs.StringVar(&f.CAFile, "ca", "", "client authorities (PEM bundle)")
	fs.StringVar(&f.CADir, "cadir", "", "directory of client authorities")
	fs.StringVar(&f.Ciphers, "ciphers", "", "TLS 1.2 cipher list (OpenSSL's form)")
	fs.StringVar(&f.CipherSuites, "suites", "", "TLS 1.3 cipher suites")
	fs.StringVar(&f.VerifyClients, "verify", "", `"true" requires a client certificate`)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg, warnings, err := Load(f)
	var se *SetupError
	if errors.As(err, &se) {
		fmt.Fprintln(out, se.Error())
		return 1
	}
	ctrlFile := os.NewFile(3, "control")
	nc, err := net.FileConn(ctrlFile)
	ctrlFile.Close()
	ctrl, ok := nc.(*net.UnixConn)
	if err != nil || !ok {
		fmt.Fprintf(out, "Error: pmproxytls: no control socket on descriptor 3 (pmproxy starts it)\n")
		return 1
	}
	fmt.Fprintf(out, "Info: %s setup\n", Version())
	for _, w := range warnings {
		fmt.Fprintln(out, w)
	}
	fmt.Fprintln(out, "ready")
	if err := Serve(ctrl, cfg, Options{}); err != nil {
		fmt.Fprintf(out, "Error: pmproxytls: %v\n", err)
		return 1
	}
	return 0
}
