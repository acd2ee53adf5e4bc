// Command pmevent is PCP's pmevent(1), which PCP installs as another name
// of pmval: the same program (cmd/internal/pmval), naming itself pmevent
// in its usage and messages, most often run on event metrics, whose
// records it unpacks one by one.
package main

import "github.com/gopcp/gopcp/cmd/internal/pmval"

func main() { pmval.Main() }
