package derive_test

import (
	"errors"
	"fmt"

	"github.com/gopcp/gopcp/derive"
)

// An expression parsed as pmRegisterDerived parses it and printed back
// fully parenthesised, showing how libpcp binds its operators (* and /
// left to right, before +).
func ExampleParse() {
	n, err := derive.Parse("disk.busy", "100 * disk.dev.avactive / 1000 + rate(disk.dev.total)")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(n)
	// Output:
	// (((100 * disk.dev.avactive) / 1000) + rate(disk.dev.total))
}

// A registry's definitions: one accepted, one refused with libpcp's
// message and the position where its parser stopped (the text libpcp
// 6.0.3's pmRegisterDerivedMetric gives for the same definition).
func ExampleRegistry_Register() {
	r := derive.NewRegistry()
	fmt.Println(r.Register("net.bytes", "network.interface.in.bytes + network.interface.out.bytes"))
	err := r.Register("net.bad", "network.interface.in.bytes * (1")
	var se *derive.SyntaxError
	if errors.As(err, &se) {
		fmt.Printf("refused at byte %d:\n%v\n", se.Pos, err)
	}
	// The registry holds libpcp's anonymous event metrics from the start.
	for _, d := range r.Defs() {
		fmt.Println(d.Name)
	}
	// Output:
	// <nil>
	// refused at byte 30:
	// Error: pmRegisterDerivedMetric("net.bad", ...)
	// network.interface.in.bytes * (1
	//                               ^
	// Arithmetic expression expected to follow STAR
	// event.flags
	// event.missed
	// net.bytes
}
