/*
 * A preload library for PCP's pmdate: time(2) answers $GOPCP_FAKE_NOW
 * (seconds since the epoch), so that it and ours read the same present.
 */
#include <stdlib.h>
#include <time.h>

time_t
time(time_t *tp)
{
    const char	*now = getenv("GOPCP_FAKE_NOW");
    time_t	t = now == NULL ? 0 : (time_t)strtoll(now, NULL, 10);

    if (tp != NULL)
	*tp = t;
    return t;
}
