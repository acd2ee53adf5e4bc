package trace_test

import (
	"errors"
	"testing"

	"github.com/gopcp/gopcp/trace"
)

// FuzzEnvOptions reads fuzzed PCP_TRACE_* values. Whatever they are,
// the Options are usable: a port as C's int holds it (PortZero for 0),
// waits not below -1 (PCP_TRACE_TIMEOUT=0's no alarm, REQTIMEOUT=0's no
// wait), back-off steps that are positive, New taking them; a value refused is
// reported as ErrEnvFormat naming its variable, and one accepted leaves
// no error behind.
func FuzzEnvOptions(f *testing.F) {
	f.Add("4321", "2.5", "10", "5,10,20")
	f.Add("0x10e1", "0", "1e6", "1")
	f.Add("-1", "-1", "nan", "0")
	f.Add("65536", "inf", "1e7", "5,,10")
	f.Add("070", "1e300", "", "99999999999999999")
	f.Add("", "", "", "")
	f.Fuzz(func(t *testing.T, port, timeout, reqTimeout, reconnect string) {
		env := map[string]string{
			trace.EnvPort: port, trace.EnvTimeout: timeout, trace.EnvReqTimeout: reqTimeout,
			trace.EnvReconnect: reconnect, trace.EnvHost: "somehost",
		}
		o, err := trace.EnvOptions(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
		if err != nil && !errors.Is(err, trace.ErrEnvFormat) {
			t.Fatalf("error %v is not ErrEnvFormat", err)
		}
		if o.Port < trace.PortZero || o.Port > 1<<31-1 {
			t.Fatalf("port %q gave %d", port, o.Port)
		}
		if o.RequestTimeout < -1 || o.ConnectTimeout < -1 {
			t.Fatalf("timeouts %q %q gave %v %v", timeout, reqTimeout, o.ConnectTimeout, o.RequestTimeout)
		}
		if _, err := trace.New(o); err != nil {
			t.Fatalf("New(%+v): %v", o, err)
		}
		for _, d := range o.Reconnect {
			if d <= 0 {
				t.Fatalf("back-off %q gave %v", reconnect, o.Reconnect)
			}
		}
		if o.Host != "somehost" {
			t.Fatalf("host %q", o.Host)
		}
	})
}

// TestEnvOptionsOutOfRange: a NaN timeout and a back-off step of more
// seconds than a Duration holds are refused (they were taken, as the
// most negative Duration and as a wrapped one).
func TestEnvOptionsOutOfRange(t *testing.T) {
	for name, v := range map[string]string{
		trace.EnvTimeout: "nan", trace.EnvReqTimeout: "NaN", trace.EnvReconnect: "5,99999999999999999",
	} {
		o, err := trace.EnvOptions(func(k string) (string, bool) { return v, k == name })
		if !errors.Is(err, trace.ErrEnvFormat) {
			t.Errorf("%s=%q: error %v, want ErrEnvFormat", name, v, err)
		}
		if o.ConnectTimeout != 0 || o.RequestTimeout != 0 || o.Reconnect != nil {
			t.Errorf("%s=%q taken: %+v", name, v, o)
		}
	}
}
