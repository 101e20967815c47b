#include <sys/prctl.h>
#include "plum_shim.h"

int plum_set_timer_slack(unsigned long nanoseconds) { return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0); }

long plum_timer_slack(void) { return prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0); }
