// Package goruntime publishes the Go runtime's own metrics
// (runtime/metrics) through an mmv registry, as mmv.<file>.<prefix>.*:
//
//	reg, _ := mmv.New("myapp", mmv.Options{Dir: dir})
//	rt, _ := goruntime.Export(reg, "go")
//	reg.Start()
//	go rt.Run(ctx, time.Second)
//
// It is a package of its own, not part of mmv, because runtime/metrics
// builds its tables when a program starts: every program that links
// package mmv (the MMV agent that the tools link for -L among them)
// would pay for it whether it exports the runtime's metrics or not.
package goruntime
