package trace_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/gopcp/gopcp/trace"
)

func TestEnvOptions(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want trace.Options
		bad  bool
	}{
		{map[string]string{}, trace.Options{}, false},
		{map[string]string{"PCP_TRACE_HOST": "h", "PCP_TRACE_PORT": "0x10", "PCP_TRACE_TIMEOUT": "1.5", "PCP_TRACE_REQTIMEOUT": "2", "PCP_TRACE_RECONNECT": "1,2,3", "PCP_TRACE_NOAGENT": ""},
			trace.Options{Host: "h", Port: 16, ConnectTimeout: 1500 * time.Millisecond, RequestTimeout: 2 * time.Second, Reconnect: []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}, NoAgent: true}, false},
		{map[string]string{"PCP_TRACE_PORT": "010"}, trace.Options{Port: 8}, false},
		{map[string]string{"PCP_TRACE_PORT": " +70000"}, trace.Options{Port: 70000}, false},
		{map[string]string{"PCP_TRACE_PORT": "x"}, trace.Options{BadEnv: []string{"PCP_TRACE_PORT"}}, true},
		{map[string]string{"PCP_TRACE_PORT": "1_0"}, trace.Options{BadEnv: []string{"PCP_TRACE_PORT"}}, true},
		{map[string]string{"PCP_TRACE_PORT": "4294967295"}, trace.Options{BadEnv: []string{"PCP_TRACE_PORT"}}, true},
		{map[string]string{"PCP_TRACE_TIMEOUT": "-1"}, trace.Options{BadEnv: []string{"PCP_TRACE_TIMEOUT"}}, true},
		{map[string]string{"PCP_TRACE_TIMEOUT": "0", "PCP_TRACE_REQTIMEOUT": ""}, trace.Options{ConnectTimeout: -1, RequestTimeout: -1}, false},
		{map[string]string{"PCP_TRACE_HOST": ""}, trace.Options{EmptyHost: true}, false},
		// port 0 itself, which libpcp_trace dials (refused)
		{map[string]string{"PCP_TRACE_PORT": ""}, trace.Options{Port: trace.PortZero}, false},
		{map[string]string{"PCP_TRACE_PORT": "0"}, trace.Options{Port: trace.PortZero}, false},
		{map[string]string{"PCP_TRACE_PORT": "0x10000"}, trace.Options{Port: 0x10000}, false},
		{map[string]string{"PCP_TRACE_TIMEOUT": "0x1p1", "PCP_TRACE_REQTIMEOUT": "1s"}, trace.Options{ConnectTimeout: 2 * time.Second, BadEnv: []string{"PCP_TRACE_REQTIMEOUT"}}, true},
		{map[string]string{"PCP_TRACE_RECONNECT": "5,0"}, trace.Options{BadEnv: []string{"PCP_TRACE_RECONNECT"}}, true},
		{map[string]string{"PCP_TRACE_RECONNECT": "5,"}, trace.Options{BadEnv: []string{"PCP_TRACE_RECONNECT"}}, true},
	}
	for _, c := range cases {
		got, err := trace.EnvOptions(func(k string) (string, bool) { v, ok := c.env[k]; return v, ok })
		if (err != nil) != c.bad || (err != nil && !errors.Is(err, trace.ErrEnvFormat)) {
			t.Errorf("%v: error %v", c.env, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v: %+v, want %+v", c.env, got, c.want)
		}
	}
}
