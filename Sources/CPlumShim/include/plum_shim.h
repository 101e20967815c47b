#ifndef PLUM_SHIM_H
#define PLUM_SHIM_H
/* Version-neutral C API over libgpiod 1.6 / 2.x and libi2c. Every symbol is prefixed plum_. */

/* "1" or "2": which libgpiod API this build was compiled against. */
const char *plum_gpio_api_version(void);

/* errno as its symbolic name ("EACCES"), or NULL when unknown (glibc strerrorname_np). */
const char *plum_errno_name(int errnum);
/* errno as the system's message ("Permission denied"), thread-safe. */
const char *plum_errno_message(int errnum, char *buffer, unsigned long size);
#endif
