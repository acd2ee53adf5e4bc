package main

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/proxybed"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestNoConsolePrompt: a web request for a context on a pmcd that
// demands credentials, sent without any, is refused without pmproxy
// asking on its console: PCP_CONSOLE naming a file is neither read nor
// emptied, and the request is answered.
func TestNoConsolePrompt(t *testing.T) {
	s := testbed.NewSASL(t, "plain login scram-sha-256", "pw")
	bed := testbed.StartPMCD(t, s.Options())
	console := filepath.Join(t.TempDir(), "console")
	const typed = "someone\npw\n"
	if err := os.WriteFile(console, []byte(typed), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PCP_CONSOLE", console)
	proxy := startOurs(t, proxybed.Conf)
	c := http.Client{Timeout: 2 * time.Minute}
	resp, err := c.Get("http://" + proxy + "/pmapi/context?hostspec=" + url.QueryEscape(bed.Host()+"?userauth"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		t.Errorf("a context without credentials was made: %s", body)
	}
	got, err := os.ReadFile(console)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != typed {
		t.Errorf("PCP_CONSOLE was touched: now %q", got)
	}
}
