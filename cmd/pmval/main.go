// Command pmval is PCP's pmval(1): the values of one metric at each
// interval, from a pmcd, local agents or archives (cmd/internal/pmval).
package main

import "github.com/gopcp/gopcp/cmd/internal/pmval"

func main() { pmval.Main() }
