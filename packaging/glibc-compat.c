// glibc 2.38 symbols for binaries that must run on glibc 2.36 (Debian 12, Raspberry Pi OS bookworm).
//
// The cross build (packaging/cross-toolchain) links Debian sid's arm64 Swift runtime statically,
// and sid built those static libraries against glibc 2.38 or newer. Their objects then ask for
// symbols that Debian 12's glibc 2.36 does not have:
//   - __isoc23_strtol and its kin: with _GNU_SOURCE (C2x) glibc 2.38's <stdlib.h> renames strtol
//     to the C23 variant, which also reads a "0b" binary prefix;
//   - __isoc23_sscanf, the same renaming for sscanf (libdispatch and the runtime's command line);
//   - strlcpy and strlcat, new in glibc 2.38.
// Each is defined here over what glibc 2.36 has, with the same meaning. On a newer glibc these
// definitions, being in the executable, win over the library's; they behave the same.
//
// Linked only into the cross-built packages (packaging/build-deb --arch); a native build on
// Debian 12 needs none of it.

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// C23's strtol family reads "0b" or "0B" before binary digits when the base is 0 or 2; glibc 2.36's
// stops at the "b". Returns where the digits start and the base to read them in, or NULL when the
// string has no such prefix (then the caller reads it the C11 way).
static const char *plum_binary_digits(const char *text, int base) {
    if (base != 0 && base != 2) return NULL;
    const char *p = text;
    while (isspace((unsigned char)*p)) p++;
    if (*p == '+' || *p == '-') p++;
    if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B') && (p[2] == '0' || p[2] == '1')) return p + 2;
    return NULL;
}

// Reads a binary number after its prefix; sets *end past the digits.
#define PLUM_BINARY(type, name, c11)                                                        \
    static type name(const char *text, char **end, int base, int *handled) {                \
        const char *digits = plum_binary_digits(text, base);                                \
        *handled = digits != NULL;                                                          \
        if (digits == NULL) return 0;                                                       \
        const char *p = text;                                                               \
        while (isspace((unsigned char)*p)) p++;                                             \
        int negative = *p == '-';                                                           \
        /* The sign and the digits, without the prefix, read by the C11 function. */        \
        char buffer[sizeof(type) * CHAR_BIT + 2];                                           \
        size_t n = 0;                                                                       \
        if (negative) buffer[n++] = '-';                                                    \
        const char *q = digits;                                                             \
        while ((*q == '0' || *q == '1') && n < sizeof buffer - 1) buffer[n++] = *q++;       \
        while (*q == '0' || *q == '1') q++; /* more digits than fit: c11 reports ERANGE */  \
        buffer[n] = '\0';                                                                   \
        char *buffer_end;                                                                   \
        type value = c11(buffer, &buffer_end, 2);                                           \
        if (q > digits + (n - negative)) {                                                  \
            errno = ERANGE;                                                                 \
        }                                                                                   \
        if (end != NULL) *end = (char *)q;                                                  \
        return value;                                                                       \
    }

PLUM_BINARY(long, plum_binary_l, strtol)
PLUM_BINARY(long long, plum_binary_ll, strtoll)
PLUM_BINARY(unsigned long, plum_binary_ul, strtoul)
PLUM_BINARY(unsigned long long, plum_binary_ull, strtoull)
PLUM_BINARY(intmax_t, plum_binary_imax, strtoimax)
PLUM_BINARY(uintmax_t, plum_binary_umax, strtoumax)

#define PLUM_C23(type, c23, c11, binary)                                    \
    type c23(const char *text, char **end, int base);                       \
    type c23(const char *text, char **end, int base) {                      \
        int handled;                                                        \
        type value = binary(text, end, base, &handled);                     \
        return handled ? value : c11(text, end, base);                      \
    }

PLUM_C23(long, __isoc23_strtol, strtol, plum_binary_l)
PLUM_C23(long long, __isoc23_strtoll, strtoll, plum_binary_ll)
PLUM_C23(unsigned long, __isoc23_strtoul, strtoul, plum_binary_ul)
PLUM_C23(unsigned long long, __isoc23_strtoull, strtoull, plum_binary_ull)
PLUM_C23(intmax_t, __isoc23_strtoimax, strtoimax, plum_binary_imax)
PLUM_C23(uintmax_t, __isoc23_strtoumax, strtoumax, plum_binary_umax)

// C23's scanf family also reads %b (binary) conversions, which the runtime's format strings never
// use; the C11 functions read all the others alike.
#include <stdarg.h>
#include <stdio.h>

int __isoc23_vsscanf(const char *restrict text, const char *restrict format, va_list arguments);
int __isoc23_vsscanf(const char *restrict text, const char *restrict format, va_list arguments) {
    return vsscanf(text, format, arguments);
}

int __isoc23_sscanf(const char *restrict text, const char *restrict format, ...);
int __isoc23_sscanf(const char *restrict text, const char *restrict format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int result = vsscanf(text, format, arguments);
    va_end(arguments);
    return result;
}

// BSD's strlcpy and strlcat, as glibc 2.38 defines them: the length of the string tried.
size_t strlcpy(char *restrict destination, const char *restrict source, size_t size);
size_t strlcpy(char *restrict destination, const char *restrict source, size_t size) {
    size_t length = strlen(source);
    if (size > 0) {
        size_t n = length < size - 1 ? length : size - 1;
        memcpy(destination, source, n);
        destination[n] = '\0';
    }
    return length;
}

size_t strlcat(char *restrict destination, const char *restrict source, size_t size);
size_t strlcat(char *restrict destination, const char *restrict source, size_t size) {
    size_t used = strnlen(destination, size);
    if (used == size) return size + strlen(source);
    return used + strlcpy(destination + used, source, size - used);
}
