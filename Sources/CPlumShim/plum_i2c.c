/*
 * The thin I2C shim: only what Swift cannot call cleanly. ioctl is variadic, and libi2c's
 * i2c_smbus_* return a negative errno since i2c-tools 4.0 (they returned -1 with errno
 * before): every function here returns -1 with errno, like the rest of the shim.
 */
#include <errno.h>
#include <sys/ioctl.h>
#include <linux/i2c-dev.h>
#include <i2c/smbus.h>
#include "plum_shim.h"

/* Turns either libi2c convention into -1 with errno. */
static int plum_i2c_result(int result) {
    if (result >= 0) return result;
    if (result == -1 && errno != 0) return -1; /* old convention, or -EPERM: errno says */
    errno = -result;
    return -1;
}

int plum_i2c_set_address(int fd, uint16_t address) {
    return ioctl(fd, I2C_SLAVE, (unsigned long)address) < 0 ? -1 : 0;
}

int plum_i2c_read_byte_data(int fd, uint8_t reg) {
    errno = 0;
    return plum_i2c_result(i2c_smbus_read_byte_data(fd, reg));
}

int plum_i2c_write_byte_data(int fd, uint8_t reg, uint8_t value) {
    errno = 0;
    return plum_i2c_result(i2c_smbus_write_byte_data(fd, reg, value));
}

int plum_i2c_read_word_data(int fd, uint8_t reg) {
    errno = 0;
    return plum_i2c_result(i2c_smbus_read_word_data(fd, reg));
}

int plum_i2c_write_word_data(int fd, uint8_t reg, uint16_t value) {
    errno = 0;
    return plum_i2c_result(i2c_smbus_write_word_data(fd, reg, value));
}

int plum_i2c_read_block_data(int fd, uint8_t reg, uint8_t length, uint8_t *values) {
    if (length > I2C_SMBUS_BLOCK_MAX) { errno = EINVAL; return -1; }
    errno = 0;
    return plum_i2c_result(i2c_smbus_read_i2c_block_data(fd, reg, length, values));
}

int plum_i2c_write_block_data(int fd, uint8_t reg, uint8_t length, const uint8_t *values) {
    if (length > I2C_SMBUS_BLOCK_MAX) { errno = EINVAL; return -1; }
    errno = 0;
    return plum_i2c_result(i2c_smbus_write_i2c_block_data(fd, reg, length, values));
}

int plum_i2c_receive_byte(int fd) {
    errno = 0;
    return plum_i2c_result(i2c_smbus_read_byte(fd));
}
