package cli

import (
	"reflect"
	"testing"
)

// TestAddArchive checks the joining of several -a into libpcp's one
// comma-separated list, duplicates judged by the first occurrence only.
func TestAddArchive(t *testing.T) {
	tests := []struct {
		argv []string
		want []string
		msgs int
	}{
		{[]string{"-a", "x"}, []string{"x"}, 0},
		{[]string{"-a", "x", "-a", "y", "-a", "z"}, []string{"x,y,z"}, 0},
		{[]string{"-a", "x", "-a", "x"}, []string{"x"}, 0},
		{[]string{"-a", "x,y", "-a", "y"}, []string{"x,y"}, 0},
		{[]string{"-a", "ab", "-a", "b"}, []string{"ab,b"}, 0},
		// strstr finds "b" inside "ab" first, so the later "b" is missed
		{[]string{"-a", "ab,b", "-a", "b"}, []string{"ab,b,b"}, 0},
		{[]string{"-a", "x", "-a", "x,y"}, []string{"x,x,y"}, 0},
		{[]string{"-h", "h", "-a", "x"}, nil, 1},
	}
	for _, tc := range tests {
		p := ParseEnv(pmvalLike(), append([]string{"pmval"}, append(tc.argv, "m")...), nil)
		if !reflect.DeepEqual(p.Archives, tc.want) || len(p.Messages) != tc.msgs {
			t.Errorf("%q: archives %q, messages %q; want %q", tc.argv, p.Archives, p.Messages, tc.want)
		}
	}
}

// TestMultiSources checks PM_OPTFLAG_MULTI: each archive a source of its
// own (repeats dropped), any number of hosts, and the environment's
// lists split into names.
func TestMultiSources(t *testing.T) {
	cmd := pmvalLike()
	cmd.Multi = true
	tests := []struct {
		argv, env []string
		archives  []string
		hosts     []string
		msgs      int
	}{
		{argv: []string{"-a", "x", "-a", "y", "-a", "x"}, archives: []string{"x", "y"}},
		{argv: []string{"-h", "a", "-h", "b"}, hosts: []string{"a", "b"}},
		{argv: []string{"-h", "a", "-a", "x"}, hosts: []string{"a"}, msgs: 1},
		{env: []string{"PCP_ARCHIVE_LIST=x,,y,"}, argv: []string{"-a", "z"}, archives: []string{"x", "", "y", "z"}},
		{env: []string{"PCP_HOST_LIST=a,,b"}, hosts: []string{"a", "b"}},
	}
	for _, tc := range tests {
		p := ParseEnv(cmd, append([]string{"pmstat"}, append(tc.argv, "m")...), tc.env)
		if !reflect.DeepEqual(p.Archives, tc.archives) || !reflect.DeepEqual(p.Hosts, tc.hosts) || len(p.Messages) != tc.msgs {
			t.Errorf("%q %q: archives %q hosts %q messages %q", tc.env, tc.argv, p.Archives, p.Hosts, p.Messages)
		}
	}
}
