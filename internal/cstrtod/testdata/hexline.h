/* The harnesses' input: text sent as its bytes in hex, so that any byte
 * can be sent. */
#include <string.h>

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
	return c - '0';
    if (c >= 'a' && c <= 'f')
	return c - 'a' + 10;
    return -1;
}

/* unhex puts the bytes whose hex digits start at hex (up to a newline or
 * the end) into text, NUL-terminated, at most size - 1 of them; it
 * returns -1 for a character that is not a hex digit. */
static int unhex(const char *hex, char *text, size_t size)
{
    size_t n = strcspn(hex, "\n"), k = 0;
    for (size_t i = 0; i + 1 < n && k < size - 1; i += 2) {
	int hi = hexval(hex[i]), lo = hexval(hex[i + 1]);
	if (hi < 0 || lo < 0)
	    return -1;
	text[k++] = (char)(hi * 16 + lo);
    }
    text[k] = '\0';
    return 0;
}
