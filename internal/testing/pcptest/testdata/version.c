/* Prints the PCP version libpcp reports, to prove a build against it. */
#include <stdio.h>
#include <pcp/pmapi.h>

int
main(void)
{
    printf("%s\n", pmGetConfig("PCP_VERSION"));
    return 0;
}
