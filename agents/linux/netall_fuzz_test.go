package linux

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInterfacesPattern: the pattern loses every byte isspace(3) counts
// as space (vertical tab and form feed too) and comments, and keeps what
// follows a NUL only from the next line on, as PCP's agent reads it.
func TestInterfacesPattern(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"^(lo|eth0)$ # loopback\n", "^(lo|eth0)$"},
		{"^(lo|\v\fbond[0-9]+)$\r\n", "^(lo|bond[0-9]+)$"},
		{"# all\n#\n  \n", ""},
		{"^lo\x00|eth0\n|bond0$", "^lo|bond0$"},
		{strings.Repeat("a", 130) + "\x00b\nc", strings.Repeat("a", 130) + "c"},
		{strings.Repeat("a", 120) + "\x00" + strings.Repeat("b", 10) + "c\n", strings.Repeat("a", 120) + "bbbbc"},
	} {
		if got := interfacesPattern([]byte(c.in)); got != c.want {
			t.Errorf("interfacesPattern(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzInterfacesConf reads fuzzed interfaces.conf files. The pattern
// holds no space, comment or NUL and is no longer than the file; comments
// and blank lines added around it do not change it; the expression used
// is the pattern when it compiles as POSIX ERE, else PCP's default; and
// it judges interface names without failing.
func FuzzInterfacesConf(f *testing.F) {
	for _, p := range []string{"/etc/pcp/linux/interfaces.conf", "testdata/fixture/etc/pcp/linux/interfaces.conf"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("^(lo|bond[0-9]+|team[0-9]+|face)$\n"))
	f.Add([]byte("# virtual\n^(lo |\tveth.*|docker[0-9]+)$ # containers\n"))
	f.Add([]byte("^eth\\d$\n"))
	f.Add([]byte("(?i)LO\n"))
	dir := f.TempDir()
	names := []string{"lo", "eth0", "bond0", "team12", "face", "wlan0", "", "bond", "veth1a2b", "docker0", "en p1s0"}
	f.Fuzz(func(t *testing.T, b []byte) {
		p := interfacesPattern(b)
		if len(p) > len(b) || strings.ContainsAny(p, " \t\n\v\f\r#\x00") {
			t.Fatalf("pattern %q from %q", p, b)
		}
		if !bytes.ContainsRune(b, 0) {
			framed := append(append([]byte("# heading\n\n"), b...), "\n# trailer\n"...)
			if q := interfacesPattern(framed); q != p {
				t.Fatalf("framed in comments %q, pattern %q", q, p)
			}
		}
		path := filepath.Join(dir, "interfaces.conf")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		re := loadInterfacesConf(path)
		if re == nil || (re.String() != p && re.String() != defaultVirtualIfs) {
			t.Fatalf("expression %v for pattern %q", re, p)
		}
		for _, n := range names {
			re.MatchString(n)
		}
	})
}
