package pmda

import (
	"flag"
	"io"
	"testing"
)

func TestDaemonFlags(t *testing.T) {
	cases := []struct {
		args []string
		want DaemonOptions
		bad  bool
	}{
		{nil, DaemonOptions{Domain: 250, LogFile: "x.log"}, false},
		{[]string{"-d", "30", "-l", "/tmp/a.log"}, DaemonOptions{Domain: 30, LogFile: "/tmp/a.log"}, false},
		{[]string{"-i", "4000"}, DaemonOptions{Domain: 250, LogFile: "x.log", Port: 4000}, false},
		{[]string{"-u", "/run/s", "-p"}, DaemonOptions{Domain: 250, LogFile: "x.log"}, false},
		{[]string{"-u", "/run/s", "-U", "pcp", "-D", "appl0"}, DaemonOptions{Domain: 250, LogFile: "x.log", Socket: "/run/s", Username: "pcp", Debug: "appl0"}, false},
		{[]string{"-d", "0"}, DaemonOptions{}, true},
		{[]string{"-d", "511"}, DaemonOptions{}, true},
		{[]string{"-d", "x"}, DaemonOptions{}, true},
		{[]string{"-x"}, DaemonOptions{}, true},
	}
	for _, c := range cases {
		o := DaemonOptions{Domain: 250, LogFile: "x.log"}
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o.Flags(fs)
		err := fs.Parse(c.args)
		if c.bad {
			if err == nil {
				t.Errorf("%q: accepted", c.args)
			}
			continue
		}
		if err != nil || o != c.want {
			t.Errorf("%q: %+v, %v; want %+v", c.args, o, err, c.want)
		}
	}
}
