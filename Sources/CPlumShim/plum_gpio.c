#include <gpiod.h>
#include "plum_shim.h"

#ifdef GPIOD_LINE_BULK_MAX_LINES
const char *plum_gpio_api_version(void) { return "1"; }
#else
const char *plum_gpio_api_version(void) { return "2"; }
#endif
