// Package startpages lets a long-running replay give back the pages of
// its own binary that only its start needed.
//
// The kernel maps a program's file 64 KB around each page it touches
// (fault-around), and the Go runtime reads its metadata tables all over
// at start: the function table for the first memory-profile sample and
// every stack copy, type descriptors for every itab and allocation,
// every linked package's initialisation. So most of .rodata and
// .gopclntab is resident by the time main runs, and each table is
// larger by whatever else is linked (the agents for -L: about 1 MB of
// pmval's peak). Release drops the process's mappings of those tables'
// pages; the kernel maps again, from the page cache, the ones touched
// after.
// GrowStack grows a goroutine's stack while it is shallow, so that the
// replay's deep calls do not copy it, which reads the function table
// entries of every frame (docs/bench.md, "Replay: why linking the
// agents costs resident memory").
package startpages
