/*
 * Runs a script of instance cache operations against libpcp_pmda's cache
 * and prints one line per operation, so a Go test can run the same script
 * against pmda.Cache and compare. Lines: VERB [ARG] [NAME...]; see
 * cache_test.go for the verbs. The cache file lives under $PCP_VAR_DIR.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *
state(int s)
{
    switch (s) {
    case PMDA_CACHE_ACTIVE: return "active";
    case PMDA_CACHE_INACTIVE: return "inactive";
    case PMDA_CACHE_EMPTY: return "empty";
    }
    return "?";
}

static int
unhex(const char *s, char *key)
{
    int n = 0;
    unsigned int b;

    if (strcmp(s, "-") == 0)
	return 0;
    while (s[0] && s[1] && sscanf(s, "%2x", &b) == 1) {
	key[n++] = (char)b;
	s += 2;
    }
    return n;
}

int
main(void)
{
    pmInDom indom = pmInDom_build(253, 0);
    char line[4096], verb[64], arg[1024], key[512];
    char *name, *oname;
    int sts, inst, n;
    void *priv;

    while (fgets(line, sizeof(line), stdin) != NULL) {
	line[strcspn(line, "\n")] = '\0';
	arg[0] = '\0';
	name = "";
	n = 0;
	if (sscanf(line, "%63s %n", verb, &n) < 1)
	    continue;
	name = line + n;
	printf("%s:", line);
	if (strcmp(verb, "add") == 0)
	    sts = pmdaCacheStore(indom, PMDA_CACHE_ADD, name, NULL);
	else if (strcmp(verb, "hide") == 0)
	    sts = pmdaCacheStore(indom, PMDA_CACHE_HIDE, name, NULL);
	else if (strcmp(verb, "cull") == 0)
	    sts = pmdaCacheStore(indom, PMDA_CACHE_CULL, name, NULL);
	else if (strcmp(verb, "addkey") == 0) {
	    sscanf(name, "%1023s %n", arg, &n);
	    sts = unhex(arg, key);
	    sts = pmdaCacheStoreKey(indom, PMDA_CACHE_ADD, name + n, sts, sts ? key : NULL, NULL);
	}
	else if (strcmp(verb, "lookup") == 0) {
	    sts = pmdaCacheLookup(indom, atoi(name), &oname, &priv);
	    if (sts >= 0) {
		printf(" %s %s\n", oname, state(sts));
		continue;
	    }
	}
	else if (strcmp(verb, "lookupname") == 0) {
	    sts = pmdaCacheLookupName(indom, name, &inst, &priv);
	    if (sts >= 0) {
		printf(" %d %s\n", inst, state(sts));
		continue;
	    }
	}
	else if (strcmp(verb, "lookupkey") == 0) {
	    sscanf(name, "%1023s %n", arg, &n);
	    sts = unhex(arg, key);
	    sts = pmdaCacheLookupKey(indom, name + n, sts, sts ? key : NULL, &oname, &inst, &priv);
	    if (sts >= 0) {
		printf(" %s %d %s\n", oname, inst, state(sts));
		continue;
	    }
	}
	else if (strcmp(verb, "walk") == 0) {
	    pmdaCacheOp(indom, PMDA_CACHE_WALK_REWIND);
	    while ((inst = pmdaCacheOp(indom, PMDA_CACHE_WALK_NEXT)) >= 0) {
		pmdaCacheLookup(indom, inst, &oname, NULL);
		printf(" %d=%s", inst, oname);
	    }
	    putchar('\n');
	    continue;
	}
	else if (strcmp(verb, "load") == 0) sts = pmdaCacheOp(indom, PMDA_CACHE_LOAD);
	else if (strcmp(verb, "save") == 0) sts = pmdaCacheOp(indom, PMDA_CACHE_SAVE);
	else if (strcmp(verb, "sync") == 0) sts = pmdaCacheOp(indom, PMDA_CACHE_SYNC);
	else if (strcmp(verb, "strings") == 0) sts = pmdaCacheOp(indom, PMDA_CACHE_STRINGS);
	else if (strcmp(verb, "activeall") == 0) sts = pmdaCacheOp(indom, PMDA_CACHE_ACTIVE);
	else if (strcmp(verb, "inactiveall") == 0) sts = pmdaCacheOp(indom, PMDA_CACHE_INACTIVE);
	else if (strcmp(verb, "cullall") == 0) sts = pmdaCacheOp(indom, PMDA_CACHE_CULL);
	else if (strcmp(verb, "size") == 0) sts = pmdaCacheOp(indom, PMDA_CACHE_SIZE);
	else if (strcmp(verb, "sizeactive") == 0) sts = pmdaCacheOp(indom, PMDA_CACHE_SIZE_ACTIVE);
	else if (strcmp(verb, "sizeinactive") == 0) sts = pmdaCacheOp(indom, PMDA_CACHE_SIZE_INACTIVE);
	else if (strcmp(verb, "reuse") == 0) sts = pmdaCacheOp(indom, PMDA_CACHE_REUSE);
	else if (strcmp(verb, "reorg") == 0) sts = pmdaCacheOp(indom, PMDA_CACHE_REORG);
	else {
	    printf(" unknown verb\n");
	    continue;
	}
	if (sts < 0)
	    printf(" error %d\n", sts);
	else
	    printf(" %d\n", sts);
    }
    return 0;
}
