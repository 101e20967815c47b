#ifndef PLUM_SHIM_H
#define PLUM_SHIM_H
/*
 * Version-neutral C API over libgpiod 1.6 / 2.x and libi2c. Every symbol is prefixed plum_.
 * What is not hardware (errno names, accept4, eventfd) is in CPlumSystem.
 *
 * Conventions, the same for every function here:
 *  - functions returning int return -1 and set errno on failure (never a negative errno);
 *  - functions returning a pointer return NULL and set errno on failure;
 *  - nothing prints, nothing aborts.
 * The libgpiod version is chosen when the shim is compiled: only libgpiod 1.x defines
 * GPIOD_LINE_BULK_MAX_LINES.
 */
#include <stddef.h>
#include <stdint.h>

/* "1" or "2": which libgpiod API this build was compiled against. */
const char *plum_gpio_api_version(void);

/* ---- Threads --------------------------------------------------------------------------- */

/* The calling thread's timer slack in nanoseconds (prctl PR_SET_TIMERSLACK / PR_GET_TIMERSLACK;
 * prctl is variadic, which Swift cannot call). Setting 0 restores the thread's default. */
int plum_set_timer_slack(unsigned long nanoseconds);
long plum_timer_slack(void);

/* ---- GPIO ------------------------------------------------------------------------------ */

/* An open GPIO character device (/dev/gpiochipN). */
typedef struct plum_gpio_chip plum_gpio_chip;
/* One requested line with its preallocated edge-event buffer. */
typedef struct plum_gpio_request plum_gpio_request;

/* Kernel GPIO_MAX_NAME_SIZE: chip names, labels, line names and consumers fit in 32 bytes. */
#define PLUM_GPIO_NAME_SIZE 32

typedef enum plum_gpio_bias {
    PLUM_GPIO_BIAS_AS_IS = 0,
    PLUM_GPIO_BIAS_DISABLED = 1,
    PLUM_GPIO_BIAS_PULL_UP = 2,
    PLUM_GPIO_BIAS_PULL_DOWN = 3,
} plum_gpio_bias;

/* Which edges to report; the values match Swift's EdgeDetection. */
typedef enum plum_gpio_edge {
    PLUM_GPIO_EDGE_NONE = 0,
    PLUM_GPIO_EDGE_RISING = 1,
    PLUM_GPIO_EDGE_FALLING = 2,
    PLUM_GPIO_EDGE_BOTH = 3,
} plum_gpio_edge;

/* Which way a line went; the values match Swift's EdgeKind. */
#define PLUM_GPIO_EDGE_KIND_RISING 1u
#define PLUM_GPIO_EDGE_KIND_FALLING 2u

typedef struct plum_gpio_edge_event {
    uint32_t kind;          /* PLUM_GPIO_EDGE_KIND_* */
    uint32_t offset;        /* line offset on its chip */
    uint64_t timestamp_ns;  /* the kernel's timestamp, CLOCK_MONOTONIC (Linux >= 5.7) */
} plum_gpio_edge_event;

typedef struct plum_gpio_chip_info {
    char name[PLUM_GPIO_NAME_SIZE];   /* "gpiochip0" */
    char label[PLUM_GPIO_NAME_SIZE];  /* "pinctrl-bcm2711" */
    uint32_t num_lines;
} plum_gpio_chip_info;

/* Opens a chip by path; ENOENT, EACCES, ENODEV/ENOTTY (not a GPIO chip) as errno. */
plum_gpio_chip *plum_gpio_chip_open(const char *path);
/* Closes a chip. With libgpiod 1.6 this also releases its lines: release requests first. */
void plum_gpio_chip_close(plum_gpio_chip *chip);
int plum_gpio_chip_get_info(plum_gpio_chip *chip, plum_gpio_chip_info *info);
/* The offset of the line named `name` ("GPIO5"), or -1 with errno ENOENT. */
int plum_gpio_chip_find_line(plum_gpio_chip *chip, const char *name);
/* Copies the line's name into `buffer` ("" for an unnamed line). */
int plum_gpio_chip_line_name(plum_gpio_chip *chip, unsigned int offset, char *buffer, size_t size);
/* Copies the line's current consumer into `buffer` ("" when the line is free). */
int plum_gpio_chip_line_consumer(plum_gpio_chip *chip, unsigned int offset, char *buffer, size_t size);

/* Requests one line as an output driven to `initial_value` (logical: 1 is active). */
plum_gpio_request *plum_gpio_request_output(plum_gpio_chip *chip, unsigned int offset,
                                            const char *consumer, int active_low,
                                            int initial_value);
/* Requests one line as an input, with bias and edge detection. `event_capacity` sizes the
 * preallocated event buffer (at least 1; clamped to 1024). */
plum_gpio_request *plum_gpio_request_input(plum_gpio_chip *chip, unsigned int offset,
                                           const char *consumer, int active_low,
                                           plum_gpio_bias bias, plum_gpio_edge edge,
                                           size_t event_capacity);
void plum_gpio_request_release(plum_gpio_request *request);
/* The line's logical value: 1 active, 0 inactive, -1 on error. */
int plum_gpio_request_get_value(plum_gpio_request *request);
int plum_gpio_request_set_value(plum_gpio_request *request, int value);
/* Waits for edge events: 1 pending, 0 timed out, -1 error. A negative timeout waits forever. */
int plum_gpio_request_wait_edge_events(plum_gpio_request *request, int64_t timeout_ns);
/* Reads every pending edge event, up to `capacity`, without blocking: returns the count
 * (0 when none is pending) or -1. */
int plum_gpio_request_read_edge_events(plum_gpio_request *request, plum_gpio_edge_event *events,
                                       size_t capacity);

/* ---- I2C ------------------------------------------------------------------------------- */

/* ioctl(fd, I2C_SLAVE, address): Swift cannot call the variadic ioctl. */
int plum_i2c_set_address(int fd, uint16_t address);
/* The libi2c i2c_smbus_* calls, normalised: the value (>= 0) or -1 with errno. libi2c 4.x
 * returns a negative errno instead; older versions returned -1 with errno. */
int plum_i2c_read_byte_data(int fd, uint8_t reg);
/* SMBus receive byte (i2c_smbus_read_byte): a read with no command byte before it, so nothing
 * is written to the device (a PCF8574 returns its port, an SSD1306 its status). */
int plum_i2c_receive_byte(int fd);
int plum_i2c_write_byte_data(int fd, uint8_t reg, uint8_t value);
int plum_i2c_read_word_data(int fd, uint8_t reg);
int plum_i2c_write_word_data(int fd, uint8_t reg, uint16_t value);
/* I2C block transfers (no length byte on the wire), at most 32 bytes. Reads return the count. */
int plum_i2c_read_block_data(int fd, uint8_t reg, uint8_t length, uint8_t *values);
int plum_i2c_write_block_data(int fd, uint8_t reg, uint8_t length, const uint8_t *values);

/* ---- Framebuffer ----------------------------------------------------------------------- */

/* One colour channel of a pixel (struct fb_bitfield): `length` bits starting at bit `offset`
 * of the pixel value; `msb_right` != 0 means the channel's most significant bit is on the right. */
typedef struct plum_fb_bitfield {
    uint32_t offset;
    uint32_t length;
    uint32_t msb_right;
} plum_fb_bitfield;

/* What FBIOGET_VSCREENINFO (struct fb_var_screeninfo) and FBIOGET_FSCREENINFO
 * (struct fb_fix_screeninfo) say of a framebuffer, in a plain struct of fixed-width fields. */
typedef struct plum_fb_info {
    uint32_t xres, yres;                  /* visible resolution, pixels */
    uint32_t xres_virtual, yres_virtual;  /* the whole buffer, pixels */
    uint32_t bits_per_pixel;
    uint32_t grayscale;                   /* 0 colour, 1 grayscale, else a FOURCC */
    plum_fb_bitfield red, green, blue, transp;
    uint32_t line_length;                 /* bytes from one row to the next */
    uint32_t smem_len;                    /* bytes of framebuffer memory */
    uint32_t type;                        /* FB_TYPE_* */
    uint32_t visual;                      /* FB_VISUAL_* */
    char id[16];                          /* the driver's name, "Virtual FB"; NUL-terminated */
} plum_fb_info;

/* Both FBIOGET_*SCREENINFO ioctls on an open /dev/fbN (Swift cannot call the variadic ioctl).
 * -1 with errno on failure: ENOTTY for a file that is not a framebuffer. When the second
 * ioctl fails, errno is its own; plum_fb_failed_request says which one it was. */
int plum_fb_get_info(int fd, plum_fb_info *out);
/* "FBIOGET_VSCREENINFO" or "FBIOGET_FSCREENINFO": the ioctl that last failed in
 * plum_fb_get_info on this thread ("" when none did). */
const char *plum_fb_failed_request(void);
#endif
