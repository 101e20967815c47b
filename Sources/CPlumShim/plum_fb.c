/*
 * The framebuffer shim: the two FBIOGET_*SCREENINFO ioctls (ioctl is variadic, which Swift
 * cannot call), copied into a plain struct so that no kernel header reaches Swift.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/fb.h>
#include "plum_shim.h"

static _Thread_local const char *plum_fb_last_failed = "";

const char *plum_fb_failed_request(void) { return plum_fb_last_failed; }

static plum_fb_bitfield plum_fb_field(struct fb_bitfield field) {
    plum_fb_bitfield out = { field.offset, field.length, field.msb_right };
    return out;
}

int plum_fb_get_info(int fd, plum_fb_info *out) {
    struct fb_var_screeninfo var;
    struct fb_fix_screeninfo fix;
    if (out == NULL) { errno = EINVAL; return -1; }
    plum_fb_last_failed = "";
    memset(&var, 0, sizeof var);
    memset(&fix, 0, sizeof fix);
    if (ioctl(fd, FBIOGET_VSCREENINFO, &var) < 0) {
        plum_fb_last_failed = "FBIOGET_VSCREENINFO";
        return -1;
    }
    if (ioctl(fd, FBIOGET_FSCREENINFO, &fix) < 0) {
        plum_fb_last_failed = "FBIOGET_FSCREENINFO";
        return -1;
    }
    memset(out, 0, sizeof *out);
    out->xres = var.xres;
    out->yres = var.yres;
    out->xres_virtual = var.xres_virtual;
    out->yres_virtual = var.yres_virtual;
    out->bits_per_pixel = var.bits_per_pixel;
    out->grayscale = var.grayscale;
    out->red = plum_fb_field(var.red);
    out->green = plum_fb_field(var.green);
    out->blue = plum_fb_field(var.blue);
    out->transp = plum_fb_field(var.transp);
    out->line_length = fix.line_length;
    out->smem_len = fix.smem_len;
    out->type = fix.type;
    out->visual = fix.visual;
    /* fix.id is 16 bytes and need not be NUL-terminated. */
    memcpy(out->id, fix.id, sizeof out->id - 1);
    out->id[sizeof out->id - 1] = '\0';
    return 0;
}
