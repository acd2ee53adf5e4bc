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
