package main

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestAgainstPCP compares pmerr with PCP's: the whole -l list, every code
// in the ranges pmErrStr words differently (errnos, PCP's own, SASL's,
// beyond), the spellings sscanf takes or refuses, and the options.
func TestAgainstPCP(t *testing.T) {
	span := func(from, to int) []string {
		var s []string
		for c := from; c >= to; c-- {
			s = append(s, strconv.Itoa(c))
		}
		return s
	}
	rng := rand.New(rand.NewPCG(18, 1))
	var random []string
	for range 200 {
		v := rng.Int64N(1<<34) - 1<<33
		if rng.IntN(2) == 0 {
			random = append(random, strconv.FormatInt(v, 10))
		} else {
			random = append(random, "0x"+strconv.FormatUint(uint64(v)&(1<<36-1), 16))
		}
	}
	clitest.CompareLocal(t, "pmerr", run, []clitest.Case{
		{Name: "list", Args: []string{"-l"}},
		{Name: "list long", Args: []string{"--list", "-12345"}},
		{Name: "none", Args: nil},
		{Name: "help", Args: []string{"-?"}},
		{Name: "help long", Args: []string{"--help"}},
		{Name: "illegal", Args: []string{"-x", "-12345"}},
		{Name: "illegal long", Args: []string{"--bad"}},
		{Name: "dash", Args: []string{"-"}},
		{Name: "empty", Args: []string{""}},
		{Name: "option later", Args: []string{"-12345", "-l", "-?"}},
		{Name: "errnos", Args: span(0, -140)},
		{Name: "pcp", Args: span(-12340, -12450)},
		{Name: "pmda", Args: span(-13390, -13400)},
		{Name: "sasl", Args: append(span(-21340, -21400), span(-22330, -22350)...)},
		{Name: "beyond", Args: []string{"-50000", "-2147483648", "-2147483647", "-1000000"}},
		{Name: "positive", Args: []string{"12345", "1", "+5", "2147483647", "2147483648"}},
		{Name: "spellings", Args: []string{"0x3039", "0XAbC", "0x", "0xg", "0x1ffffffff", "0xffffffffffffffffff",
			"0x80000000", "00x5", "-0x3039", "-0", " 7", "12abc", "abc", "-a", "+", "99999999999",
			"99999999999999999999", "-99999999999999999999", "-9223372036854775808", "9223372036854775807"}},
		{Name: "random", Args: random},
	})
}
