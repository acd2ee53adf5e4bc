package pmval

// The tests call run in this process, whose local contexts (-L, -K)
// then find the agents in-process, as the tool did when it linked them;
// the installed tool runs each in pmdalocal, which cmd/pmdalocal's tests
// hold to the same output.
import _ "github.com/gopcp/gopcp/agents/all"
