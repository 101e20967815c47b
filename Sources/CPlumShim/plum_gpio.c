/*
 * The version-neutral GPIO shim. One file, two implementations behind the same plum_gpio_*
 * functions: libgpiod 1.6 (Debian 12, Raspberry Pi OS bookworm) and libgpiod 2.x (Debian 13).
 * Only 1.x defines GPIOD_LINE_BULK_MAX_LINES, so the choice is made here at compile time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gpiod.h>
#include "plum_shim.h"

/* The largest event buffer a request preallocates; libgpiod 2.x clamps at the same size. */
#define PLUM_GPIO_MAX_EVENT_CAPACITY 1024u

static void plum_copy_name(char *buffer, size_t size, const char *text) {
    if (size == 0) return;
    if (!text) text = "";
    size_t length = strnlen(text, size - 1);
    memcpy(buffer, text, length);
    buffer[length] = '\0';
}

static size_t plum_clamp_capacity(size_t capacity) {
    if (capacity == 0) return 1;
    return capacity > PLUM_GPIO_MAX_EVENT_CAPACITY ? PLUM_GPIO_MAX_EVENT_CAPACITY : capacity;
}

#ifdef GPIOD_LINE_BULK_MAX_LINES
/* ======================================================================== libgpiod 1.6 == */

const char *plum_gpio_api_version(void) { return "1"; }

struct plum_gpio_chip { struct gpiod_chip *chip; };

struct plum_gpio_request {
    struct gpiod_line *line;
    unsigned int offset;
    int has_events;
    size_t capacity;
    struct gpiod_line_event *events; /* preallocated: reads never allocate */
};

plum_gpio_chip *plum_gpio_chip_open(const char *path) {
    if (!path) { errno = EINVAL; return NULL; }
    plum_gpio_chip *handle = calloc(1, sizeof(*handle));
    if (!handle) return NULL;
    errno = 0;
    handle->chip = gpiod_chip_open(path);
    if (!handle->chip) {
        int saved = errno ? errno : ENODEV;
        free(handle);
        errno = saved;
        return NULL;
    }
    return handle;
}

void plum_gpio_chip_close(plum_gpio_chip *chip) {
    if (!chip) return;
    gpiod_chip_close(chip->chip);
    free(chip);
}

int plum_gpio_chip_get_info(plum_gpio_chip *chip, plum_gpio_chip_info *info) {
    if (!chip || !info) { errno = EINVAL; return -1; }
    plum_copy_name(info->name, sizeof(info->name), gpiod_chip_name(chip->chip));
    plum_copy_name(info->label, sizeof(info->label), gpiod_chip_label(chip->chip));
    info->num_lines = gpiod_chip_num_lines(chip->chip);
    return 0;
}

int plum_gpio_chip_find_line(plum_gpio_chip *chip, const char *name) {
    if (!chip || !name) { errno = EINVAL; return -1; }
    errno = 0;
    struct gpiod_line *line = gpiod_chip_find_line(chip->chip, name);
    if (!line) {
        if (errno == 0) errno = ENOENT;
        return -1;
    }
    return (int)gpiod_line_offset(line);
}

static struct gpiod_line *plum_v1_line(plum_gpio_chip *chip, unsigned int offset) {
    if (!chip) { errno = EINVAL; return NULL; }
    if (offset >= gpiod_chip_num_lines(chip->chip)) { errno = EINVAL; return NULL; }
    return gpiod_chip_get_line(chip->chip, offset);
}

int plum_gpio_chip_line_name(plum_gpio_chip *chip, unsigned int offset, char *buffer, size_t size) {
    struct gpiod_line *line = plum_v1_line(chip, offset);
    if (!line) return -1;
    plum_copy_name(buffer, size, gpiod_line_name(line));
    return 0;
}

int plum_gpio_chip_line_consumer(plum_gpio_chip *chip, unsigned int offset, char *buffer,
                                 size_t size) {
    struct gpiod_line *line = plum_v1_line(chip, offset);
    if (!line) return -1;
    /* The line object caches what the kernel said when the chip was opened: refresh it. */
    if (gpiod_line_update(line) < 0) return -1;
    plum_copy_name(buffer, size, gpiod_line_consumer(line));
    return 0;
}

static plum_gpio_request *plum_v1_request(plum_gpio_chip *chip, unsigned int offset,
                                          const char *consumer, int request_type, int flags,
                                          int value, size_t capacity) {
    struct gpiod_line *line = plum_v1_line(chip, offset);
    if (!line) return NULL;
    plum_gpio_request *request = calloc(1, sizeof(*request));
    if (!request) return NULL;
    request->line = line;
    request->offset = offset;
    request->has_events = request_type >= GPIOD_LINE_REQUEST_EVENT_FALLING_EDGE;
    request->capacity = capacity;
    if (request->has_events) {
        request->events = calloc(capacity, sizeof(*request->events));
        if (!request->events) { free(request); errno = ENOMEM; return NULL; }
    }
    struct gpiod_line_request_config config = {
        .consumer = consumer, .request_type = request_type, .flags = flags,
    };
    if (gpiod_line_request(line, &config, value) < 0) {
        int saved = errno;
        free(request->events);
        free(request);
        errno = saved;
        return NULL;
    }
    return request;
}

plum_gpio_request *plum_gpio_request_output(plum_gpio_chip *chip, unsigned int offset,
                                            const char *consumer, int active_low,
                                            int initial_value) {
    int flags = active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
    return plum_v1_request(chip, offset, consumer, GPIOD_LINE_REQUEST_DIRECTION_OUTPUT, flags,
                           initial_value ? 1 : 0, 0);
}

plum_gpio_request *plum_gpio_request_input(plum_gpio_chip *chip, unsigned int offset,
                                           const char *consumer, int active_low,
                                           plum_gpio_bias bias, plum_gpio_edge edge,
                                           size_t event_capacity) {
    int flags = active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
    switch (bias) {
    case PLUM_GPIO_BIAS_AS_IS: break;
    case PLUM_GPIO_BIAS_DISABLED: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE; break;
    case PLUM_GPIO_BIAS_PULL_UP: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP; break;
    case PLUM_GPIO_BIAS_PULL_DOWN: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN; break;
    default: errno = EINVAL; return NULL;
    }
    int type;
    switch (edge) {
    case PLUM_GPIO_EDGE_NONE: type = GPIOD_LINE_REQUEST_DIRECTION_INPUT; break;
    case PLUM_GPIO_EDGE_RISING: type = GPIOD_LINE_REQUEST_EVENT_RISING_EDGE; break;
    case PLUM_GPIO_EDGE_FALLING: type = GPIOD_LINE_REQUEST_EVENT_FALLING_EDGE; break;
    case PLUM_GPIO_EDGE_BOTH: type = GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES; break;
    default: errno = EINVAL; return NULL;
    }
    return plum_v1_request(chip, offset, consumer, type, flags, 0,
                           plum_clamp_capacity(event_capacity));
}

void plum_gpio_request_release(plum_gpio_request *request) {
    if (!request) return;
    gpiod_line_release(request->line);
    free(request->events);
    free(request);
}

int plum_gpio_request_get_value(plum_gpio_request *request) {
    return gpiod_line_get_value(request->line);
}

int plum_gpio_request_set_value(plum_gpio_request *request, int value) {
    return gpiod_line_set_value(request->line, value ? 1 : 0);
}

int plum_gpio_request_wait_edge_events(plum_gpio_request *request, int64_t timeout_ns) {
    if (!request->has_events) { errno = EPERM; return -1; }
    struct timespec ts = { 0, 0 };
    if (timeout_ns >= 0) {
        ts.tv_sec = (time_t)(timeout_ns / 1000000000LL);
        ts.tv_nsec = (long)(timeout_ns % 1000000000LL);
    }
    return gpiod_line_event_wait(request->line, timeout_ns < 0 ? NULL : &ts);
}

int plum_gpio_request_read_edge_events(plum_gpio_request *request, plum_gpio_edge_event *events,
                                       size_t capacity) {
    if (!request->has_events) { errno = EPERM; return -1; }
    size_t total = 0;
    while (total < capacity) {
        /* gpiod_line_event_read_multiple blocks when nothing is queued: look first. */
        int pending = plum_gpio_request_wait_edge_events(request, 0);
        if (pending < 0) return total > 0 ? (int)total : -1;
        if (pending == 0) break;
        size_t want = capacity - total;
        if (want > request->capacity) want = request->capacity;
        int count = gpiod_line_event_read_multiple(request->line, request->events,
                                                   (unsigned int)want);
        if (count < 0) return total > 0 ? (int)total : -1;
        for (int i = 0; i < count; i++) {
            const struct gpiod_line_event *event = &request->events[i];
            events[total].kind = event->event_type == GPIOD_LINE_EVENT_RISING_EDGE
                ? PLUM_GPIO_EDGE_KIND_RISING : PLUM_GPIO_EDGE_KIND_FALLING;
            events[total].offset = request->offset;
            events[total].timestamp_ns =
                (uint64_t)event->ts.tv_sec * 1000000000ULL + (uint64_t)event->ts.tv_nsec;
            total++;
        }
        if (count == 0) break;
    }
    return (int)total;
}

#else
/* ======================================================================== libgpiod 2.x == */

const char *plum_gpio_api_version(void) { return "2"; }

struct plum_gpio_chip { struct gpiod_chip *chip; };

struct plum_gpio_request {
    struct gpiod_line_request *request;
    unsigned int offset;
    struct gpiod_edge_event_buffer *buffer; /* preallocated: reads never allocate */
    size_t capacity;
};

plum_gpio_chip *plum_gpio_chip_open(const char *path) {
    if (!path) { errno = EINVAL; return NULL; }
    plum_gpio_chip *handle = calloc(1, sizeof(*handle));
    if (!handle) return NULL;
    errno = 0;
    handle->chip = gpiod_chip_open(path);
    if (!handle->chip) {
        int saved = errno ? errno : ENODEV;
        free(handle);
        errno = saved;
        return NULL;
    }
    return handle;
}

void plum_gpio_chip_close(plum_gpio_chip *chip) {
    if (!chip) return;
    gpiod_chip_close(chip->chip);
    free(chip);
}

int plum_gpio_chip_get_info(plum_gpio_chip *chip, plum_gpio_chip_info *info) {
    if (!chip || !info) { errno = EINVAL; return -1; }
    struct gpiod_chip_info *chip_info = gpiod_chip_get_info(chip->chip);
    if (!chip_info) return -1;
    plum_copy_name(info->name, sizeof(info->name), gpiod_chip_info_get_name(chip_info));
    plum_copy_name(info->label, sizeof(info->label), gpiod_chip_info_get_label(chip_info));
    info->num_lines = (uint32_t)gpiod_chip_info_get_num_lines(chip_info);
    gpiod_chip_info_free(chip_info);
    return 0;
}

int plum_gpio_chip_find_line(plum_gpio_chip *chip, const char *name) {
    if (!chip || !name) { errno = EINVAL; return -1; }
    return gpiod_chip_get_line_offset_from_name(chip->chip, name);
}

static int plum_v2_line_text(plum_gpio_chip *chip, unsigned int offset, int consumer,
                             char *buffer, size_t size) {
    if (!chip) { errno = EINVAL; return -1; }
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip->chip, offset);
    if (!info) return -1;
    plum_copy_name(buffer, size, consumer ? gpiod_line_info_get_consumer(info)
                                          : gpiod_line_info_get_name(info));
    gpiod_line_info_free(info);
    return 0;
}

int plum_gpio_chip_line_name(plum_gpio_chip *chip, unsigned int offset, char *buffer, size_t size) {
    return plum_v2_line_text(chip, offset, 0, buffer, size);
}

int plum_gpio_chip_line_consumer(plum_gpio_chip *chip, unsigned int offset, char *buffer,
                                 size_t size) {
    return plum_v2_line_text(chip, offset, 1, buffer, size);
}

static plum_gpio_request *plum_v2_request(plum_gpio_chip *chip, unsigned int offset,
                                          const char *consumer,
                                          struct gpiod_line_settings *settings,
                                          size_t capacity) {
    struct gpiod_line_config *line_config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    plum_gpio_request *request = calloc(1, sizeof(*request));
    int saved = ENOMEM;
    if (!line_config || !request_config || !request) goto fail;
    if (gpiod_line_config_add_line_settings(line_config, &offset, 1, settings) < 0) {
        saved = errno;
        goto fail;
    }
    gpiod_request_config_set_consumer(request_config, consumer);
    if (capacity > 0) {
        gpiod_request_config_set_event_buffer_size(request_config, capacity);
        request->buffer = gpiod_edge_event_buffer_new(capacity);
        if (!request->buffer) goto fail;
    }
    request->capacity = capacity;
    request->offset = offset;
    request->request = gpiod_chip_request_lines(chip->chip, request_config, line_config);
    if (!request->request) { saved = errno; goto fail; }
    gpiod_request_config_free(request_config);
    gpiod_line_config_free(line_config);
    return request;
fail:
    if (request) gpiod_edge_event_buffer_free(request->buffer);
    free(request);
    gpiod_request_config_free(request_config);
    gpiod_line_config_free(line_config);
    errno = saved;
    return NULL;
}

plum_gpio_request *plum_gpio_request_output(plum_gpio_chip *chip, unsigned int offset,
                                            const char *consumer, int active_low,
                                            int initial_value) {
    if (!chip) { errno = EINVAL; return NULL; }
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (!settings) { errno = ENOMEM; return NULL; }
    gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT);
    gpiod_line_settings_set_active_low(settings, active_low != 0);
    gpiod_line_settings_set_output_value(settings, initial_value ? GPIOD_LINE_VALUE_ACTIVE
                                                                 : GPIOD_LINE_VALUE_INACTIVE);
    plum_gpio_request *request = plum_v2_request(chip, offset, consumer, settings, 0);
    int saved = errno;
    gpiod_line_settings_free(settings);
    errno = saved;
    return request;
}

plum_gpio_request *plum_gpio_request_input(plum_gpio_chip *chip, unsigned int offset,
                                           const char *consumer, int active_low,
                                           plum_gpio_bias bias, plum_gpio_edge edge,
                                           size_t event_capacity) {
    if (!chip) { errno = EINVAL; return NULL; }
    enum gpiod_line_bias line_bias;
    switch (bias) {
    case PLUM_GPIO_BIAS_AS_IS: line_bias = GPIOD_LINE_BIAS_AS_IS; break;
    case PLUM_GPIO_BIAS_DISABLED: line_bias = GPIOD_LINE_BIAS_DISABLED; break;
    case PLUM_GPIO_BIAS_PULL_UP: line_bias = GPIOD_LINE_BIAS_PULL_UP; break;
    case PLUM_GPIO_BIAS_PULL_DOWN: line_bias = GPIOD_LINE_BIAS_PULL_DOWN; break;
    default: errno = EINVAL; return NULL;
    }
    enum gpiod_line_edge line_edge;
    switch (edge) {
    case PLUM_GPIO_EDGE_NONE: line_edge = GPIOD_LINE_EDGE_NONE; break;
    case PLUM_GPIO_EDGE_RISING: line_edge = GPIOD_LINE_EDGE_RISING; break;
    case PLUM_GPIO_EDGE_FALLING: line_edge = GPIOD_LINE_EDGE_FALLING; break;
    case PLUM_GPIO_EDGE_BOTH: line_edge = GPIOD_LINE_EDGE_BOTH; break;
    default: errno = EINVAL; return NULL;
    }
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (!settings) { errno = ENOMEM; return NULL; }
    gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
    gpiod_line_settings_set_active_low(settings, active_low != 0);
    gpiod_line_settings_set_bias(settings, line_bias);
    gpiod_line_settings_set_edge_detection(settings, line_edge);
    size_t capacity = line_edge == GPIOD_LINE_EDGE_NONE ? 0 : plum_clamp_capacity(event_capacity);
    plum_gpio_request *request = plum_v2_request(chip, offset, consumer, settings, capacity);
    int saved = errno;
    gpiod_line_settings_free(settings);
    errno = saved;
    return request;
}

void plum_gpio_request_release(plum_gpio_request *request) {
    if (!request) return;
    gpiod_line_request_release(request->request);
    gpiod_edge_event_buffer_free(request->buffer);
    free(request);
}

int plum_gpio_request_get_value(plum_gpio_request *request) {
    return (int)gpiod_line_request_get_value(request->request, request->offset);
}

int plum_gpio_request_set_value(plum_gpio_request *request, int value) {
    return gpiod_line_request_set_value(request->request, request->offset,
                                        value ? GPIOD_LINE_VALUE_ACTIVE
                                              : GPIOD_LINE_VALUE_INACTIVE);
}

int plum_gpio_request_wait_edge_events(plum_gpio_request *request, int64_t timeout_ns) {
    if (!request->buffer) { errno = EPERM; return -1; }
    return gpiod_line_request_wait_edge_events(request->request, timeout_ns);
}

int plum_gpio_request_read_edge_events(plum_gpio_request *request, plum_gpio_edge_event *events,
                                       size_t capacity) {
    if (!request->buffer) { errno = EPERM; return -1; }
    size_t total = 0;
    while (total < capacity) {
        /* gpiod_line_request_read_edge_events blocks when nothing is queued: look first. */
        int pending = gpiod_line_request_wait_edge_events(request->request, 0);
        if (pending < 0) return total > 0 ? (int)total : -1;
        if (pending == 0) break;
        size_t want = capacity - total;
        if (want > request->capacity) want = request->capacity;
        int count = gpiod_line_request_read_edge_events(request->request, request->buffer, want);
        if (count < 0) return total > 0 ? (int)total : -1;
        for (int i = 0; i < count; i++) {
            struct gpiod_edge_event *event =
                gpiod_edge_event_buffer_get_event(request->buffer, (unsigned long)i);
            events[total].kind =
                gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE
                ? PLUM_GPIO_EDGE_KIND_RISING : PLUM_GPIO_EDGE_KIND_FALLING;
            events[total].offset = gpiod_edge_event_get_line_offset(event);
            events[total].timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
            total++;
        }
        if (count == 0) break;
    }
    return (int)total;
}
#endif
