package pmcd

import "time"

// timeNow is the clock results are stamped with; tests may replace it.
var timeNow = time.Now
