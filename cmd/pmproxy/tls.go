package main

import (
	"log"

	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pmproxy"
)

// startTLS starts the TLS companion when tls.conf and pmproxy.conf turn
// TLS on (nil, nil when they do not), logging what PCP's pmproxy logs;
// an error (exit status 1) when PCP's would end: a certificate or key
// missing or unreadable, an authority or cipher list refused, and here
// also a companion that cannot be run.
func startTLS(conf pmproxy.Conf, logger *log.Logger) (*pmproxy.TLSRelay, error) {
	path, _ := pcpconf.Get("PCP_TLSCONF_PATH")
	s, err := pmproxy.ReadTLSSettings(conf, path)
	if err != nil {
		logger.Printf("Error: pmproxy: %v", err)
		return nil, exitError(1)
	}
	if s == nil {
		return nil, nil
	}
	bin, err := pmproxy.FindTLSCompanion()
	if err != nil {
		logger.Printf("Error: pmproxy: %v", err)
		return nil, exitError(1)
	}
	relay, err := pmproxy.StartTLSRelay(bin, s, logger)
	if err != nil {
		return nil, exitError(1)
	}
	if s.CipherSuites != "" {
		logger.Printf("Info: Using cipher suites: %s", s.CipherSuites)
	} else if s.Ciphers != "" {
		logger.Printf("Info: Using cipher list: %s", s.Ciphers)
	}
	if s.Compat {
		if path == "" {
			path = "/etc/pcp/tls.conf"
		}
		logger.Printf("Info: TLS configured in pmproxy.conf, please switch to %s", path)
	}
	return relay, nil
}
