package pcp

import "strconv"

// Error returns pmErrStr's text for the code.
// TODO(errors): the full table of PCP texts and errno texts.
func (e Error) Error() string { return "PCP error " + strconv.Itoa(int(e)) }
