// SPDX-License-Identifier: MIT
/*
 * hx711_probe - the harness's own HX711 reader, on the kernel's GPIO v2 uAPI directly.
 *
 * It proves the emulated chip and the kernel path before any project binary is involved:
 * line requests on /dev/gpiochipN, SCK output ioctls, DOUT falling-edge events with kernel
 * timestamps. It deliberately shares no code with the project's driver.
 *
 *   hx711_probe CHIP [-n READINGS] [-p PULSES] [-t TIMEOUT_MS] [-H HOLD_US] [-L LATE_US]
 *
 * For each reading: waits for a DOUT falling edge (poll on the request fd), checks DOUT is
 * low, clocks PULSES (25/26/27) pulses reading 24 bits MSB first, and prints
 *   reading value=<signed 24-bit> edge_ns=<kernel timestamp> high_max_ns=<longest SCK high>
 * With -H, SCK is then held high for HOLD_US (to power the chip down) before going low.
 * A read-out that ends more than LATE_US (default 75000: three quarters of a period at 10 Hz)
 * after its ready edge may have had its word replaced by the next conversion, and one during
 * which the emulated chip counted a replaced word (its "aborted" parameter) did: it is printed as
 *   late value=... edge_ns=... readout_ns=... replaced=0|1
 * and read again, at the same gain (the chip latched no selection from it); at most 20 times.
 * Prints "timeout" and exits 2 when no edge comes within TIMEOUT_MS.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static int req_fd = -1;

static void die(const char *what)
{
	fprintf(stderr, "hx711_probe: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* One of the emulated chip's counters (a module parameter), or -1 where the module does not say. */
static long module_count(const char *name)
{
	char path[96];
	FILE *f;
	long n = -1;

	snprintf(path, sizeof(path), "/sys/module/hx711_sim/parameters/%s", name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

/*
 * The emulated chip's count of words replaced mid-read-out by the next conversion, or -1
 * where the module does not say. A read-out that started on a word whose ready edge came
 * before the lines were requested has no edge to time it from; this count still tells when
 * its word was replaced under the clock.
 */
static long replaced_words(void)
{
	return module_count("aborted");
}

/*
 * After a word was replaced under the clock, the chip started the new word's shift at its MSB
 * and counted the pulses that followed as that word's first: it is mid-word, and DOUT low is a
 * data bit, not "ready". Its next conversion starts a word afresh (the emulated chip counts it
 * in "conversions"): wait for that one, at most timeout_ms.
 */
static void wait_for_next_conversion(int timeout_ms)
{
	long before = module_count("conversions");

	for (int waited = 0; before >= 0 && waited < timeout_ms; waited++) {
		if (module_count("conversions") != before)
			return;
		usleep(1000);
	}
}

/* Line 0 of the request is SCK, line 1 is DOUT. */
static void set_sck(int v)
{
	struct gpio_v2_line_values vals = { .bits = v ? 1 : 0, .mask = 1 };

	if (ioctl(req_fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &vals) < 0)
		die("set SCK");
}

static int get_dout(void)
{
	struct gpio_v2_line_values vals = { .mask = 2 };

	if (ioctl(req_fd, GPIO_V2_LINE_GET_VALUES_IOCTL, &vals) < 0)
		die("get DOUT");
	return (vals.bits >> 1) & 1;
}

int main(int argc, char **argv)
{
	int readings = 1, pulses = 25, timeout_ms = 1000, hold_us = 0, late_us = 75000, retries = 20, opt;
	struct gpio_v2_line_request req;
	uint64_t readout_end = 0;
	int chip_fd;

	while ((opt = getopt(argc, argv, "n:p:t:H:L:")) != -1) {
		switch (opt) {
		case 'n': readings = atoi(optarg); break;
		case 'p': pulses = atoi(optarg); break;
		case 't': timeout_ms = atoi(optarg); break;
		case 'H': hold_us = atoi(optarg); break;
		case 'L': late_us = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s CHIP [-n N] [-p 25|26|27] [-t MS] [-H US] [-L US]\n", argv[0]);
			return 1;
		}
	}
	if (optind >= argc || pulses < 25 || pulses > 27) {
		fprintf(stderr, "usage: %s CHIP [-n N] [-p 25|26|27] [-t MS] [-H US] [-L US]\n", argv[0]);
		return 1;
	}
	chip_fd = open(argv[optind], O_RDWR | O_CLOEXEC);
	if (chip_fd < 0)
		die(argv[optind]);

	memset(&req, 0, sizeof(req));
	req.offsets[0] = 0;	/* SCK */
	req.offsets[1] = 1;	/* DOUT */
	req.num_lines = 2;
	strcpy(req.consumer, "hx711-probe");
	req.config.flags = GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_FALLING;
	req.config.num_attrs = 2;
	req.config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_FLAGS;
	req.config.attrs[0].attr.flags = GPIO_V2_LINE_FLAG_OUTPUT;
	req.config.attrs[0].mask = 1;
	req.config.attrs[1].attr.id = GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES;
	req.config.attrs[1].attr.values = 0;
	req.config.attrs[1].mask = 1;
	if (ioctl(chip_fd, GPIO_V2_GET_LINE_IOCTL, &req) < 0)
		die("request SCK+DOUT");
	req_fd = req.fd;

	for (int r = 0; r < readings; r++) {
		struct gpio_v2_line_event ev[16];
		struct pollfd pfd = { .fd = req_fd, .events = POLLIN };
		uint64_t edge_ns = 0, high_max = 0;
		int32_t value = 0;
		int ret;

		/*
		 * Drain pending edges: data-bit edges of the previous read-out and, when the next
		 * conversion is already ready, its falling edge, which is the latest one. DOUT can
		 * also already be low with no pending edge (a conversion that came before the lines
		 * were requested); that reading's edge_ns is 0.
		 */
		for (;;) {
			ssize_t n;

			ret = poll(&pfd, 1, 0);
			if (ret <= 0)
				break;
			n = read(req_fd, ev, sizeof(ev));
			if (n < (ssize_t)sizeof(ev[0]))
				die("read events");
			for (ssize_t k = 0; k < n / (ssize_t)sizeof(ev[0]); k++)
				if (ev[k].id == GPIO_V2_LINE_EVENT_FALLING_EDGE && ev[k].timestamp_ns > readout_end)
					edge_ns = ev[k].timestamp_ns;
		}
		/* Wait for a conversion: a falling edge with DOUT still low. */
		while (get_dout() != 0) {
			ssize_t n;

			edge_ns = 0;
			ret = poll(&pfd, 1, timeout_ms);
			if (ret < 0)
				die("poll");
			if (ret == 0) {
				printf("timeout dout=%d\n", get_dout());
				return 2;
			}
			n = read(req_fd, ev, sizeof(ev));
			if (n < (ssize_t)sizeof(ev[0]))
				die("read event");
			edge_ns = ev[n / sizeof(ev[0]) - 1].timestamp_ns;
		}
		long replaced_before = replaced_words();

		for (int i = 1; i <= pulses; i++) {
			uint64_t t0 = now_ns(), high;

			set_sck(1);
			if (i <= 24)
				value = (value << 1) | get_dout();
			if (i == pulses && hold_us)
				usleep(hold_us);
			high = now_ns() - t0;
			set_sck(0);
			if (high > high_max)
				high_max = high;
		}
		readout_end = now_ns();
		if (value & 0x800000)
			value -= 0x1000000;
		int replaced = replaced_before >= 0 && replaced_words() > replaced_before;

		if (((edge_ns && late_us > 0 && readout_end - edge_ns > (uint64_t)late_us * 1000) || replaced) &&
		    retries-- > 0) {
			printf("late value=%d edge_ns=%llu readout_ns=%llu replaced=%d\n", value,
			       (unsigned long long)edge_ns, (unsigned long long)(edge_ns ? readout_end - edge_ns : 0),
			       replaced);
			if (replaced)
				wait_for_next_conversion(timeout_ms);
			r--;
			continue;
		}
		printf("reading value=%d edge_ns=%llu high_max_ns=%llu dout_after=%d\n", value,
		       (unsigned long long)edge_ns, (unsigned long long)high_max, get_dout());
		fflush(stdout);
	}
	return 0;
}
