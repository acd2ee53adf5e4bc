/* Builds event arrays with libpcp_pmda and prints each as
 * "name type len hex-after-header" or "name error N", one a line, the
 * golden data of TestEventArrayAgainstPCP (UPDATE_GOLDEN=1 rebuilds it). */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <stdio.h>
#include <string.h>

static void dump(const char *name, int hr, int idx)
{
    unsigned char *p;
    int len, type, i;
    if (hr) {
        pmHighResEventArray *a = pmdaEventHighResGetAddr(idx);
        p = (unsigned char *)a; len = a->ea_len; type = a->ea_type;
    } else {
        pmEventArray *a = pmdaEventGetAddr(idx);
        p = (unsigned char *)a; len = a->ea_len; type = a->ea_type;
    }
    printf("%s %d %d ", name, type, len);
    for (i = 4; i < len; i++) printf("%02x", p[i]);
    printf("\n");
}

static int rec(int hr, int idx, int sec, int sub, int flags)
{
    if (hr) { struct timespec ts = {sec, sub * 1000}; return pmdaEventAddHighResRecord(idx, &ts, flags); }
    struct timeval tv = {sec, sub}; return pmdaEventAddRecord(idx, &tv, flags);
}
static int missed(int hr, int idx, int sec, int sub, int n)
{
    if (hr) { struct timespec ts = {sec, sub * 1000}; return pmdaEventAddHighResMissedRecord(idx, &ts, n); }
    struct timeval tv = {sec, sub}; return pmdaEventAddMissedRecord(idx, &tv, n);
}
static int param(int hr, int idx, pmID id, int type, pmAtomValue *a)
{
    return hr ? pmdaEventHighResAddParam(idx, id, type, a) : pmdaEventAddParam(idx, id, type, a);
}
static void errline(const char *name, int sts) { printf("%s error %d\n", name, sts); }

int main(void)
{
    int hr;
    for (hr = 0; hr < 2; hr++) {
        char n[64];
        const char *pre = hr ? "highres" : "legacy";
        int idx = hr ? pmdaEventNewHighResArray() : pmdaEventNewArray();
        pmAtomValue a;
        pmID id = pmID_build(29, 0, 77);
        char agg[] = {1, 2, 3};
        pmValueBlock *vb = malloc(PM_VAL_HDR_SIZE + sizeof(agg));
        vb->vtype = PM_TYPE_AGGREGATE; vb->vlen = PM_VAL_HDR_SIZE + sizeof(agg);
        memcpy(vb->vbuf, agg, sizeof(agg));

#define RESET() (hr ? pmdaEventResetHighResArray(idx) : pmdaEventResetArray(idx))
        snprintf(n, sizeof(n), "%s-empty", pre); RESET(); dump(n, hr, idx);
        snprintf(n, sizeof(n), "%s-point", pre); RESET(); rec(hr, idx, 1000, 250, PM_EVENT_FLAG_POINT); dump(n, hr, idx);
        snprintf(n, sizeof(n), "%s-params", pre); RESET();
        rec(hr, idx, 1700000000, 999999, PM_EVENT_FLAG_START | PM_EVENT_FLAG_ID);
        a.l = -5; param(hr, idx, id, PM_TYPE_32, &a);
        a.ul = 7; param(hr, idx, id, PM_TYPE_U32, &a);
        a.ll = -1234567890123LL; param(hr, idx, id, PM_TYPE_64, &a);
        a.ull = 1234567890123ULL; param(hr, idx, id, PM_TYPE_U64, &a);
        a.f = 1.5; param(hr, idx, id, PM_TYPE_FLOAT, &a);
        a.d = -2.25; param(hr, idx, id, PM_TYPE_DOUBLE, &a);
        a.cp = "hello"; param(hr, idx, id, PM_TYPE_STRING, &a);
        a.cp = ""; param(hr, idx, id, PM_TYPE_STRING, &a);
        a.vbp = vb; param(hr, idx, id, PM_TYPE_AGGREGATE, &a);
        dump(n, hr, idx);
        snprintf(n, sizeof(n), "%s-missed", pre); RESET(); missed(hr, idx, 5, 6, 42); dump(n, hr, idx);
        snprintf(n, sizeof(n), "%s-mixed", pre); RESET();
        rec(hr, idx, 10, 1, PM_EVENT_FLAG_END); a.l = 3; param(hr, idx, id, PM_TYPE_32, &a);
        missed(hr, idx, 11, 2, 3);
        rec(hr, idx, 12, 3, 0); a.cp = "abcd"; param(hr, idx, id, PM_TYPE_STRING, &a);
        dump(n, hr, idx);
        snprintf(n, sizeof(n), "%s-flag-missed", pre); RESET(); errline(n, rec(hr, idx, 1, 0, PM_EVENT_FLAG_MISSED));
        snprintf(n, sizeof(n), "%s-bad-type", pre); RESET(); rec(hr, idx, 1, 0, 0);
        errline(n, param(hr, idx, id, PM_TYPE_EVENT, &a));
    }
    return 0;
}
