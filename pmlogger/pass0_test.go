package pmlogger

import (
	"slices"
	"testing"
)

func TestPass0Names(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"log mandatory on 1 sec { a.b c[x, \"d e\"] # f.g\n h }\n", []string{"a.b", "c", "h"}},
		{"log mandatory on 1 sec a.b\n", nil},
		{"# { a }\nlog on 1 sec { b b.c b }", []string{"b", "b.c"}},
		{"{ a1_2.x\tb[ \"]\" y ] c", []string{"a1_2.x", "b"}},
		{"{ 9a _b c", []string{"a", "b"}},
	}
	for _, c := range cases {
		if got := Pass0Names([]byte(c.text)); !slices.Equal(got, c.want) {
			t.Errorf("Pass0Names(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
