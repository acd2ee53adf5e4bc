package main

// The tests call pmval.Run in this process, whose local contexts (-L, -K)
// then find the agents in-process; the installed tool runs each in
// pmdalocal, which cmd/pmdalocal's tests hold to the same output.
import _ "github.com/gopcp/gopcp/agents/all"
