package series

import "testing"

// TestExcludedAsFnmatch: exclude.metrics patterns match as libpcp_web's
// fnmatch(pattern, name, 0) matches them, where path.Match differs: '!'
// negates a class, and a '[' without its ']' is an ordinary character
// rather than a malformed pattern.
func TestExcludedAsFnmatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		{"kernel.all.*", "kernel.all.load", true},
		{"kernel.all.[!l]*", "kernel.all.load", false},
		{"kernel.all.[!l]*", "kernel.all.cpu.user", true},
		{"kernel.[", "kernel.[", true},
		{"kernel.[", "kernel.all.load", false},
		{"*", "sample.long.one", true},
		{"sample.*.one", "sample.long.one", true},
		{"sample.?", "sample.long", false},
	} {
		l := &loader{opt: LoadOptions{Exclude: []string{tc.pattern}}}
		if got := l.excluded([]string{tc.name}); got != tc.want {
			t.Errorf("exclude %q, metric %q: excluded %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}
