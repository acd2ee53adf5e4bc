package derive

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// TestConfigAgainstPCP loads testdata/config.conf, a file with every
// kind of bad line, and compares the messages and the help texts with
// those of PCP's pminfo -t and -T.
func TestConfigAgainstPCP(t *testing.T) {
	conf, err := filepath.Abs("testdata/config.conf")
	if err != nil {
		t.Fatal(err)
	}
	p := testbed.StartPMCD(t, testbed.Options{})
	run := func(args ...string) (string, string) {
		cmd, err := p.Command(context.Background(), "pminfo", append([]string{"-h", p.Host()}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Env = append(cmd.Env, "PCP_DERIVED_CONFIG="+conf)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		_ = cmd.Run()
		return out.String(), errb.String()
	}
	wantT, wantErr := run("-t", "cfg")
	wantHelp, _ := run("-T", "cfg.e", "cfg.f")

	var warnings strings.Builder
	reg := NewRegistry()
	reg.Warn = func(m string) { warnings.WriteString(m) }
	if _, err := reg.LoadConfig(conf); err != nil {
		t.Fatal(err)
	}
	if got := warnings.String(); got != wantErr {
		diffReport(t, nil, wantErr, got)
	}
	ctx := context.Background()
	pc, err := pmapi.NewHostContext(ctx, p.Host())
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	dc := NewLayer(hostSource{pc}, reg)
	names, err := dc.Traverse(ctx, "cfg")
	if err != nil {
		t.Fatal(err)
	}
	var gotT, gotHelp strings.Builder
	for _, n := range names {
		pmids, _ := dc.LookupNames(ctx, []string{n})
		text, err := dc.LookupText(pmids[0], false)
		switch {
		case errors.Is(err, pcp.ErrText):
			fmt.Fprintf(&gotT, "%s One-line Help: Error: %s\n", n, pcp.ErrText.Error())
		case err != nil:
			t.Fatal(err)
		default:
			fmt.Fprintf(&gotT, "%s [%s]\n", n, text)
		}
		if n == "cfg.e" || n == "cfg.f" {
			text, err := dc.LookupText(pmids[0], true)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&gotHelp, "\n%s\nHelp:\n%s\n", n, text)
		}
	}
	if gotT.String() != wantT {
		diffReport(t, nil, wantT, gotT.String())
	}
	if strings.TrimSuffix(gotHelp.String(), "\n") != strings.TrimSuffix(wantHelp, "\n") {
		diffReport(t, nil, wantHelp, gotHelp.String())
	}
}

// TestLoadConfigErrors checks that a missing file is reported with
// libpcp's code (the negated errno) and that directories are descended.
func TestLoadConfigErrors(t *testing.T) {
	reg := NewRegistry()
	_, err := reg.LoadConfig("testdata/no-such-file.conf")
	if !errors.Is(err, pcp.Error(-int32(syscall.ENOENT))) {
		t.Errorf("missing file: %v, want -ENOENT", err)
	}
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.conf"), []byte("d.one = sample.long.one\n"), 0o644)
	os.WriteFile(filepath.Join(sub, "b"), []byte("d.two = sample.long.ten\nd.three = 3\n"), 0o644)
	n, err := reg.LoadConfig(dir + ":" + filepath.Join(dir, "a.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("loaded %d metrics, want 3 (a.conf twice is a duplicate the second time)", n)
	}
}

// TestLoadDefaultsConfig: the PCP_DERIVED_CONFIG a caller read chooses
// the definitions, set and empty meaning none, whatever the process's
// environment says.
func TestLoadDefaultsConfig(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "d.conf")
	if err := os.WriteFile(conf, []byte("my.one = 1\nmy.two = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PCP_DERIVED_CONFIG", "/nonexistent")
	if n := NewRegistry().LoadDefaults(conf, true); n != 2 {
		t.Errorf("LoadDefaults(%s) registered %d, want 2", conf, n)
	}
	if n := NewRegistry().LoadDefaults("", true); n != 0 {
		t.Errorf("LoadDefaults set empty registered %d, want 0", n)
	}
	if n := NewRegistry().LoadDefaults("", false); n == 0 {
		t.Error("LoadDefaults unset registered no defaults")
	}
}
