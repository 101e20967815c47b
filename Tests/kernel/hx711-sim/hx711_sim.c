// SPDX-License-Identifier: GPL-2.0
/*
 * hx711_sim - an emulated HX711 load-cell ADC behind a real GPIO chip.
 *
 * PlumScale's kernel-in-the-loop tests load this into a stock Debian kernel under QEMU,
 * so the project's real HX711 driver (libgpiod, unchanged from the one that runs on a Pi)
 * talks to a real /dev/gpiochipN: line requests, output ioctls, and edge events delivered
 * by gpiolib-cdev with kernel timestamps.
 *
 * The chip "hx711-sim" has two lines:
 *   0 "SCK"  output: every rising edge shifts the next data bit onto DOUT.
 *   1 "DOUT" input:  low while a conversion is ready; raises real edge interrupts.
 *
 * Behaviour (HX711 datasheet, Avia Semiconductor):
 *   - A conversion completes every 1/rate_hz seconds (hrtimer). When one is ready, DOUT
 *     falls; that edge goes through this chip's own irq_chip, so gpio-cdev can report it.
 *   - Each SCK rising edge shifts one bit, MSB first, 24 bits of two's complement.
 *     The 25th rising edge pulls DOUT high again. 25/26/27 pulses in total select
 *     channel A gain 128 / channel B gain 32 / channel A gain 64 for the next conversion.
 *     Every DOUT transition (data bits included) is an edge, as on real silicon.
 *   - SCK held high for longer than pd_threshold_us (60 us on the real chip) powers the
 *     chip down; the next SCK falling edge powers it up: reset to channel A gain 128, and
 *     the first conversion comes settle_periods conversion periods later.
 *     Time is kernel time (ktime), so the rule is measured, not assumed.
 *   - A conversion that completes while a word is being shifted out (1 to 24 pulses given)
 *     replaces it, as on the real chip when a read-out outlasts the conversion period: the
 *     shift starts again at the new word's MSB and DOUT goes low, so the read-out under way
 *     gets bits of two words and a short pulse count. One that completes after the word,
 *     while the gain pulses may still come (SCK high, or a pulse less than readout_gap_us
 *     ago), is lost.
 *   - The next conversion never completes sooner than three quarters of a period after the
 *     previous ready edge was raised. On the real chip it comes a period after the one that
 *     edge announced, and the edge is stamped within microseconds; under TCG a conversion can
 *     be raised milliseconds late, and the next one must not then come early on the grid.
 *
 * For the late read-out test, code_toggle flips bits of every second conversion's code, so a
 * word mixed from two conversions is a value neither of them had, and stall_low_us/stall_every
 * make every Nth read-out's first DOUT read while SCK is low (after pulse 1, 2, ... 25 in turn)
 * take that long: a sampler preempted in a PD_SCK low phase, which no high-time limit sees.
 *
 * Everything a test needs is a module parameter under /sys/module/hx711_sim/parameters:
 * the output codes per gain, the rate, the power-down threshold, a "present" switch that
 * holds DOUT high as if no chip were wired, statistics, and a log of the kernel times at
 * which conversions became ready (ready_log: "before:after" ns around raising each edge).
 */

#include <linux/gpio/driver.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>

#define HX_SCK	0
#define HX_DOUT	1
#define HX_CUE	2	/* a plain output for the daemon's buzzer: not part of the HX711 */
#define HX_BUTTON 3	/* a push button to ground (pull-up): the daemon's [[button]], not the HX711 */
#define HX_NLINES 4
#define HX_LOG_LEN 64

enum hx_gain { HX_A128 = 0, HX_B32 = 1, HX_A64 = 2 };

/* ---- parameters ------------------------------------------------------------------- */

static int code_a128 = 100000;
module_param(code_a128, int, 0644);
MODULE_PARM_DESC(code_a128, "24-bit signed code output on channel A, gain 128");
static int code_b32 = -20000;
module_param(code_b32, int, 0644);
MODULE_PARM_DESC(code_b32, "24-bit signed code output on channel B, gain 32");
static int code_a64 = 50000;
module_param(code_a64, int, 0644);
MODULE_PARM_DESC(code_a64, "24-bit signed code output on channel A, gain 64");

static unsigned int rate_hz = 80;
module_param(rate_hz, uint, 0644);
MODULE_PARM_DESC(rate_hz, "Conversions per second (10 or 80 on the real chip)");

static unsigned int pd_threshold_us = 60;
module_param(pd_threshold_us, uint, 0644);
MODULE_PARM_DESC(pd_threshold_us, "SCK high longer than this powers the chip down (60 on the real chip)");

static unsigned int settle_periods = 4;
module_param(settle_periods, uint, 0644);
MODULE_PARM_DESC(settle_periods, "Conversion periods from power-up to the first ready conversion");

static unsigned int readout_gap_us = 20000;
module_param(readout_gap_us, uint, 0644);
MODULE_PARM_DESC(readout_gap_us, "SCK pulses closer than this belong to one read-out (emulation only)");

static unsigned int code_toggle;
module_param(code_toggle, uint, 0644);
MODULE_PARM_DESC(code_toggle, "Bits flipped in every second conversion's code (0: every code as set)");

static unsigned int stall_low_us;
module_param(stall_low_us, uint, 0644);
MODULE_PARM_DESC(stall_low_us, "How long a stalled DOUT read with SCK low takes (0: no stalls)");

static unsigned int stall_every;
module_param(stall_every, uint, 0644);
MODULE_PARM_DESC(stall_every, "Stall every Nth read-out (0: none)");

static bool present = true;
module_param(present, bool, 0644);
MODULE_PARM_DESC(present, "0: no chip wired, DOUT stays high and no conversion is ever ready");

/* Statistics; write 0 to clear. */
static unsigned long conversions;	/* conversions made ready (DOUT fell) */
static unsigned long overwritten;	/* conversions that replaced unread data */
static unsigned long lost_busy;		/* conversions lost because a read-out was under way */
static unsigned long readouts;		/* read-outs of 25..27 pulses completed */
static unsigned long aborted;		/* words replaced mid-read-out by the next conversion */
static unsigned long bad_pulses;	/* read-outs with more than 27 pulses */
static unsigned long power_downs;	/* power-down/power-up cycles caused by a long SCK high */
static unsigned long edges;		/* DOUT edge interrupts raised */
static unsigned long sck_high_min_ns;	/* shortest SCK high period seen */
static unsigned long sck_high_max_ns;	/* longest SCK high period seen */
static unsigned long sck_highs;		/* SCK high periods seen */
static unsigned long stalls;		/* read-outs stalled in a low phase (stall_low_us) */
static unsigned long readout_ns_max;	/* longest ready edge to 25th pulse of a read-out */
static unsigned int last_pulses;	/* pulses in the last completed read-out */
static unsigned int gain;		/* gain of the next conversion: 128, 32 or 64 */
module_param(conversions, ulong, 0644);
module_param(overwritten, ulong, 0644);
module_param(lost_busy, ulong, 0644);
module_param(readouts, ulong, 0644);
module_param(aborted, ulong, 0644);
module_param(bad_pulses, ulong, 0644);
module_param(power_downs, ulong, 0644);
module_param(edges, ulong, 0644);
module_param(sck_high_min_ns, ulong, 0644);
module_param(sck_high_max_ns, ulong, 0644);
module_param(sck_highs, ulong, 0644);
module_param(stalls, ulong, 0644);
module_param(readout_ns_max, ulong, 0644);
module_param(last_pulses, uint, 0444);
module_param(gain, uint, 0444);

/* The CUE line: how often it went high, and for how long the last time (for the cue check). */
static unsigned long cue_rises;
static unsigned long cue_last_high_ns;
static unsigned int cue_level;
module_param(cue_rises, ulong, 0644);
module_param(cue_last_high_ns, ulong, 0644);
module_param(cue_level, uint, 0444);
static ktime_t cue_rose;

/* The BUTTON line: pressed pulls it low; each change raises an edge when one was requested. */
static unsigned long button_edges;
module_param(button_edges, ulong, 0444);
MODULE_PARM_DESC(button_edges, "BUTTON edges raised to the kernel's edge detection");

/* ---- state ------------------------------------------------------------------------ */

struct hx711_sim {
	struct gpio_chip gc;
	struct platform_device *pdev;
	struct hrtimer timer;
	spinlock_t lock;

	bool sck;		/* SCK level */
	ktime_t sck_rise;	/* when SCK last rose */
	ktime_t sck_fall;	/* when SCK last fell */
	bool dout;		/* DOUT level while powered */
	bool ready;		/* a conversion is waiting to be read */
	unsigned int pulses;	/* SCK pulses in the current read-out */
	u32 data;		/* 24-bit word being shifted out */
	enum hx_gain gain_next;	/* gain selected for the next conversion */
	unsigned int settle;	/* periods left before the first conversion after power-up */
	bool toggled;		/* this conversion's code has code_toggle applied */
	ktime_t ready_at;	/* when the word being read became ready */
	unsigned long readout_seq;	/* read-outs started, for stall_every */
	bool stalled;		/* this read-out has had its stall */
	bool was_present;

	unsigned int dout_trigger;	/* IRQ_TYPE_EDGE_* requested on DOUT, 0 when none */
	bool dout_irq_on;	/* DOUT's interrupt is unmasked: edge detection is on */
	bool button_pressed;	/* the BUTTON line is low */
	unsigned int button_trigger;	/* IRQ_TYPE_EDGE_* requested on BUTTON */
	bool button_irq_on;

	u64 log[HX_LOG_LEN][2];	/* ktime (ns) just before and after raising each ready edge */
	unsigned int log_next;
	unsigned int log_count;
};

static struct hx711_sim *hx;

static u32 hx_code(enum hx_gain g)
{
	int c = g == HX_A128 ? READ_ONCE(code_a128) : g == HX_B32 ? READ_ONCE(code_b32) : READ_ONCE(code_a64);

	c = clamp(c, -8388608, 8388607);
	return (u32)c & 0xffffff;
}

/* The next conversion's code: every second one with code_toggle's bits flipped. */
static u32 hx_convert(struct hx711_sim *s)
{
	u32 toggle = READ_ONCE(code_toggle) & 0xffffff;

	s->toggled = toggle && !s->toggled;
	return hx_code(s->gain_next) ^ (s->toggled ? toggle : 0);
}

static unsigned int hx_gain_value(enum hx_gain g)
{
	return g == HX_A128 ? 128 : g == HX_B32 ? 32 : 64;
}

static void hx_power_up_reset(struct hx711_sim *s)
{
	s->pulses = 0;
	s->ready = false;
	s->dout = true;
	s->gain_next = HX_A128;
	s->settle = READ_ONCE(settle_periods);
	WRITE_ONCE(gain, 128);
}

/* Whether the chip is powered down right now: SCK has been high too long. */
static bool hx_powered_down(struct hx711_sim *s, ktime_t now)
{
	return s->sck && ktime_to_ns(ktime_sub(now, s->sck_rise)) >
		(s64)READ_ONCE(pd_threshold_us) * NSEC_PER_USEC;
}

/* Returns the edge (IRQ_TYPE_EDGE_RISING/FALLING) to raise for a DOUT change, or 0. */
static unsigned int hx_set_dout(struct hx711_sim *s, bool level)
{
	unsigned int edge;

	if (s->dout == level)
		return 0;
	s->dout = level;
	edge = level ? IRQ_TYPE_EDGE_RISING : IRQ_TYPE_EDGE_FALLING;
	/*
	 * Like a real GPIO block, detect edges only while the interrupt is unmasked. Raising
	 * one with no handler would leave it pending in the irq core, which replays it (with a
	 * fresh timestamp) to the next process that requests DOUT: a phantom edge.
	 */
	return (READ_ONCE(s->dout_irq_on) && (s->dout_trigger & edge)) ? edge : 0;
}

/* Raises one DOUT edge through the irq domain; safe from any context, called unlocked. */
static void hx_raise(struct hx711_sim *s, unsigned int edge)
{
	if (!edge || !s->gc.irq.domain)
		return;
	if (generic_handle_domain_irq_safe(s->gc.irq.domain, HX_DOUT) == 0)
		edges++;
}

/* ---- conversions (hrtimer, hard irq context) -------------------------------------- */

static enum hrtimer_restart hx_tick(struct hrtimer *t)
{
	struct hx711_sim *s = container_of(t, struct hx711_sim, timer);
	unsigned int rate = READ_ONCE(rate_hz) ?: 1;
	unsigned int edge = 0;
	ktime_t now = ktime_get();
	unsigned long flags;
	bool logged = false;

	hrtimer_forward_now(t, ns_to_ktime(NSEC_PER_SEC / rate));

	spin_lock_irqsave(&s->lock, flags);
	if (!READ_ONCE(present)) {
		s->was_present = false;
		goto out;
	}
	if (!s->was_present) {
		/* Wired in: the chip powers up. */
		s->was_present = true;
		hx_power_up_reset(s);
		goto out;
	}
	if (hx_powered_down(s, now))
		goto out;
	if (s->settle) {
		s->settle--;
		goto out;
	}
	if (s->pulses && s->pulses < 25) {
		/*
		 * The word being shifted out is replaced: the shift starts again at the new
		 * word's MSB, DOUT goes low, and the pulses already given select nothing.
		 */
		aborted++;
		conversions++;
		s->pulses = 0;
		s->data = hx_convert(s);
		s->ready = true;
		s->ready_at = now;
		edge = hx_set_dout(s, false);
		logged = true;
		goto out;
	}
	if (s->pulses) {
		/*
		 * After the word, a read-out is under way while SCK is high or while pulses keep
		 * coming (less than readout_gap_us apart): this conversion is lost. A real
		 * read-out takes ~50 us; under TCG it takes milliseconds with stalls, and without
		 * the gap a tick could land between the 25th and a 26th pulse and pick the wrong gain.
		 */
		s64 gap = ktime_to_ns(ktime_sub(now, s->sck_fall));

		if (s->sck || gap < (s64)READ_ONCE(readout_gap_us) * NSEC_PER_USEC) {
			lost_busy++;
			goto out;
		}
		if (s->pulses > 27) {
			bad_pulses++;
		} else {
			readouts++;
			last_pulses = s->pulses;
			s->gain_next = s->pulses == 25 ? HX_A128 : s->pulses == 26 ? HX_B32 : HX_A64;
			WRITE_ONCE(gain, hx_gain_value(s->gain_next));
		}
		s->pulses = 0;
		s->ready = false;
		edge = hx_set_dout(s, true);
		if (edge) {
			/* DOUT rose on abandoning; raise that edge before the next one. */
			spin_unlock_irqrestore(&s->lock, flags);
			hx_raise(s, edge);
			spin_lock_irqsave(&s->lock, flags);
			edge = 0;
		}
	}
	conversions++;
	s->data = hx_convert(s);
	s->ready_at = now;
	if (s->ready) {
		/* Unread data is replaced; DOUT is already low, so there is no edge. */
		overwritten++;
		goto out;
	}
	s->ready = true;
	edge = hx_set_dout(s, false);
	logged = true;
out:
	spin_unlock_irqrestore(&s->lock, flags);
	hx_raise(s, edge);
	if (logged) {
		/*
		 * gpio-cdev stamps the event inside hx_raise(), so its timestamp lies between
		 * these two; under TCG the vCPU can be descheduled in between, which is why the
		 * window is logged rather than one instant.
		 */
		ktime_t after = ktime_get();
		/* Not on the grid if this edge was raised late: see the header. */
		ktime_t earliest = ktime_add_ns(after, NSEC_PER_SEC / rate * 3 / 4);

		if (ktime_before(hrtimer_get_expires(t), earliest))
			hrtimer_set_expires(t, earliest);
		spin_lock_irqsave(&s->lock, flags);
		s->log[s->log_next][0] = ktime_to_ns(now);
		s->log[s->log_next][1] = ktime_to_ns(after);
		s->log_next = (s->log_next + 1) % HX_LOG_LEN;
		if (s->log_count < HX_LOG_LEN)
			s->log_count++;
		spin_unlock_irqrestore(&s->lock, flags);
	}
	return HRTIMER_RESTART;
}

/* ---- gpio_chip -------------------------------------------------------------------- */

static int hx_get_direction(struct gpio_chip *gc, unsigned int offset)
{
	return offset == HX_DOUT || offset == HX_BUTTON ? GPIO_LINE_DIRECTION_IN : GPIO_LINE_DIRECTION_OUT;
}

static int hx_direction_input(struct gpio_chip *gc, unsigned int offset)
{
	return offset == HX_DOUT || offset == HX_BUTTON ? 0 : -EPERM;
}

static void hx_set(struct gpio_chip *gc, unsigned int offset, int value);

static int hx_direction_output(struct gpio_chip *gc, unsigned int offset, int value)
{
	if (offset == HX_DOUT || offset == HX_BUTTON)
		return -EPERM;
	hx_set(gc, offset, value);
	return 0;
}

/*
 * stall_low_us: every stall_every-th read-out, the first DOUT read with SCK low after pulse
 * 1, 2, ... 25 in turn busy-waits (interrupts on, so conversions keep completing), as if
 * the sampler had been preempted between two pulses.
 */
static void hx_maybe_stall(struct hx711_sim *s)
{
	unsigned int every = READ_ONCE(stall_every), us = READ_ONCE(stall_low_us);
	unsigned long flags;
	bool stall = false;
	ktime_t until;

	if (!every || !us)
		return;
	spin_lock_irqsave(&s->lock, flags);
	if (!s->sck && s->pulses && !s->stalled && s->readout_seq % every == 0 &&
	    s->pulses == 1 + (s->readout_seq / every) % 25) {
		s->stalled = true;
		stall = true;
		stalls++;
	}
	spin_unlock_irqrestore(&s->lock, flags);
	if (!stall)
		return;
	until = ktime_add_us(ktime_get(), us);
	while (ktime_before(ktime_get(), until))
		cpu_relax();
}

static int hx_get(struct gpio_chip *gc, unsigned int offset)
{
	struct hx711_sim *s = gpiochip_get_data(gc);
	unsigned long flags;
	int v;

	if (offset == HX_DOUT)
		hx_maybe_stall(s);
	spin_lock_irqsave(&s->lock, flags);
	if (offset == HX_CUE)
		v = READ_ONCE(cue_level);
	else if (offset == HX_BUTTON)
		v = !s->button_pressed;
	else if (offset == HX_SCK)
		v = s->sck;
	else if (!READ_ONCE(present) || !s->was_present || hx_powered_down(s, ktime_get()))
		v = 1;
	else
		v = s->dout;
	spin_unlock_irqrestore(&s->lock, flags);
	return v;
}

static void hx_set(struct gpio_chip *gc, unsigned int offset, int value)
{
	struct hx711_sim *s = gpiochip_get_data(gc);
	ktime_t now = ktime_get();
	unsigned int edge = 0;
	unsigned long flags;
	bool level = !!value;

	if (offset == HX_CUE) {
		spin_lock_irqsave(&s->lock, flags);
		if (level && !cue_level) {
			cue_rises++;
			cue_rose = now;
		} else if (!level && cue_level) {
			cue_last_high_ns = ktime_to_ns(ktime_sub(now, cue_rose));
		}
		cue_level = level;
		spin_unlock_irqrestore(&s->lock, flags);
		return;
	}
	if (offset != HX_SCK)
		return;

	spin_lock_irqsave(&s->lock, flags);
	if (level == s->sck)
		goto out;
	s->sck = level;
	if (level) {
		s->sck_rise = now;
		if (!READ_ONCE(present) || !s->was_present)
			goto out;
		if (!s->ready && !s->pulses)
			goto out;	/* no data: the pulse shifts nothing */
		if (!s->pulses) {
			s->readout_seq++;
			s->stalled = false;
		}
		s->pulses++;
		if (s->pulses <= 24)
			edge = hx_set_dout(s, (s->data >> (24 - s->pulses)) & 1);
		else
			edge = hx_set_dout(s, true);
		if (s->pulses == 24)
			s->ready = false;	/* the word is consumed */
	} else {
		u64 high = ktime_to_ns(ktime_sub(now, s->sck_rise));

		s->sck_fall = now;
		if (s->pulses == 25 && ktime_to_ns(ktime_sub(now, s->ready_at)) > readout_ns_max)
			readout_ns_max = ktime_to_ns(ktime_sub(now, s->ready_at));

		sck_highs++;
		if (!sck_high_min_ns || high < sck_high_min_ns)
			sck_high_min_ns = high;
		if (high > sck_high_max_ns)
			sck_high_max_ns = high;
		if (READ_ONCE(present) && s->was_present &&
		    high > (u64)READ_ONCE(pd_threshold_us) * NSEC_PER_USEC) {
			/* It was powered down; this falling edge powers it up again. */
			power_downs++;
			hx_power_up_reset(s);
			s->dout = false;	/* so the reset's high level is an edge */
			edge = hx_set_dout(s, true);
		}
	}
out:
	spin_unlock_irqrestore(&s->lock, flags);
	hx_raise(s, edge);
}

/* ---- irq_chip --------------------------------------------------------------------- */

static void hx_irq_mask(struct irq_data *d)
{
	struct gpio_chip *gc = irq_data_get_irq_chip_data(d);
	struct hx711_sim *s = gpiochip_get_data(gc);

	if (irqd_to_hwirq(d) == HX_DOUT)
		WRITE_ONCE(s->dout_irq_on, false);
	if (irqd_to_hwirq(d) == HX_BUTTON)
		WRITE_ONCE(s->button_irq_on, false);
	gpiochip_disable_irq(gc, irqd_to_hwirq(d));
}

static void hx_irq_unmask(struct irq_data *d)
{
	struct gpio_chip *gc = irq_data_get_irq_chip_data(d);
	struct hx711_sim *s = gpiochip_get_data(gc);

	gpiochip_enable_irq(gc, irqd_to_hwirq(d));
	if (irqd_to_hwirq(d) == HX_DOUT)
		WRITE_ONCE(s->dout_irq_on, true);
	if (irqd_to_hwirq(d) == HX_BUTTON)
		WRITE_ONCE(s->button_irq_on, true);
}

static int hx_irq_set_type(struct irq_data *d, unsigned int type)
{
	struct gpio_chip *gc = irq_data_get_irq_chip_data(d);
	struct hx711_sim *s = gpiochip_get_data(gc);
	unsigned long flags;

	if (irqd_to_hwirq(d) != HX_DOUT && irqd_to_hwirq(d) != HX_BUTTON)
		return -EINVAL;
	if (type & IRQ_TYPE_LEVEL_MASK)
		return -EINVAL;	/* the emulation raises edges only */
	spin_lock_irqsave(&s->lock, flags);
	if (irqd_to_hwirq(d) == HX_BUTTON)
		s->button_trigger = type & IRQ_TYPE_EDGE_BOTH;
	else
		s->dout_trigger = type & IRQ_TYPE_EDGE_BOTH;
	spin_unlock_irqrestore(&s->lock, flags);
	irq_set_handler_locked(d, handle_simple_irq);
	return 0;
}

static const struct irq_chip hx_irq_chip = {
	.name = "hx711-sim",
	.irq_mask = hx_irq_mask,
	.irq_unmask = hx_irq_unmask,
	.irq_set_type = hx_irq_set_type,
	.flags = IRQCHIP_IMMUTABLE | IRQCHIP_SKIP_SET_WAKE,
	GPIOCHIP_IRQ_RESOURCE_HELPERS,
};

/* ---- the ready log: kernel times (CLOCK_MONOTONIC ns) of the latest ready DOUT falls - */

static int hx_log_get(char *buf, const struct kernel_param *kp)
{
	unsigned int i, n, start;
	unsigned long flags;
	int len = 0;

	if (!hx)
		return sysfs_emit(buf, "\n");
	/* 64 "before:after" pairs of at most 20 digits each fit in the page sysfs gives us. */
	spin_lock_irqsave(&hx->lock, flags);
	n = hx->log_count;
	start = (hx->log_next + HX_LOG_LEN - n) % HX_LOG_LEN;
	for (i = 0; i < n; i++)
		len += scnprintf(buf + len, PAGE_SIZE - len, "%s%llu:%llu", i ? " " : "",
				 hx->log[(start + i) % HX_LOG_LEN][0], hx->log[(start + i) % HX_LOG_LEN][1]);
	spin_unlock_irqrestore(&hx->lock, flags);
	len += scnprintf(buf + len, PAGE_SIZE - len, "\n");
	return len;
}

static int hx_log_set(const char *val, const struct kernel_param *kp)
{
	unsigned long flags;

	if (!hx)
		return 0;
	spin_lock_irqsave(&hx->lock, flags);
	hx->log_count = 0;
	hx->log_next = 0;
	spin_unlock_irqrestore(&hx->lock, flags);
	return 0;
}

static const struct kernel_param_ops hx_log_ops = {
	.get = hx_log_get,
	.set = hx_log_set,
};
module_param_cb(ready_log, &hx_log_ops, NULL, 0644);
MODULE_PARM_DESC(ready_log, "before:after CLOCK_MONOTONIC ns around raising each of the last 64 ready edges; write to clear");

/* ---- the button: write 1 to press it, 0 to let go ----------------------------------- */

static int hx_button_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", hx ? READ_ONCE(hx->button_pressed) : 0);
}

static int hx_button_set(const char *val, const struct kernel_param *kp)
{
	struct hx711_sim *s = hx;
	unsigned int edge = 0;
	unsigned long flags;
	bool pressed;
	int ret;

	ret = kstrtobool(val, &pressed);
	if (ret || !s)
		return ret;
	spin_lock_irqsave(&s->lock, flags);
	if (pressed != s->button_pressed) {
		s->button_pressed = pressed;
		/* Pressed pulls the line low: a falling edge; letting go, a rising one. */
		edge = pressed ? IRQ_TYPE_EDGE_FALLING : IRQ_TYPE_EDGE_RISING;
		if (!READ_ONCE(s->button_irq_on) || !(s->button_trigger & edge))
			edge = 0;
	}
	spin_unlock_irqrestore(&s->lock, flags);
	if (edge && s->gc.irq.domain && generic_handle_domain_irq_safe(s->gc.irq.domain, HX_BUTTON) == 0)
		button_edges++;
	return 0;
}

static const struct kernel_param_ops hx_button_ops = {
	.get = hx_button_get,
	.set = hx_button_set,
};
module_param_cb(button, &hx_button_ops, NULL, 0644);
MODULE_PARM_DESC(button, "1: the BUTTON line is pressed (pulled low), 0: released (high)");

/* ---- module ----------------------------------------------------------------------- */

static const char *const hx_names[HX_NLINES] = { "SCK", "DOUT", "CUE", "BUTTON" };

static int __init hx711_sim_init(void)
{
	struct gpio_irq_chip *girq;
	struct hx711_sim *s;
	int ret;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	spin_lock_init(&s->lock);
	s->dout = true;
	s->was_present = false;	/* the first tick powers the chip up */

	s->pdev = platform_device_register_simple("hx711-sim", PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(s->pdev)) {
		ret = PTR_ERR(s->pdev);
		goto err_free;
	}

	s->gc.label = "hx711-sim";
	s->gc.parent = &s->pdev->dev;
	s->gc.owner = THIS_MODULE;
	s->gc.base = -1;
	s->gc.ngpio = HX_NLINES;
	s->gc.names = hx_names;
	s->gc.can_sleep = false;
	s->gc.get_direction = hx_get_direction;
	s->gc.direction_input = hx_direction_input;
	s->gc.direction_output = hx_direction_output;
	s->gc.get = hx_get;
	s->gc.set = hx_set;

	girq = &s->gc.irq;
	gpio_irq_chip_set_chip(girq, &hx_irq_chip);
	girq->handler = handle_simple_irq;
	girq->default_type = IRQ_TYPE_NONE;
	girq->parent_handler = NULL;
	girq->num_parents = 0;
	girq->parents = NULL;

	ret = gpiochip_add_data(&s->gc, s);
	if (ret)
		goto err_pdev;

	hx = s;
	hrtimer_init(&s->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	s->timer.function = hx_tick;
	hrtimer_start(&s->timer, ns_to_ktime(NSEC_PER_SEC / (rate_hz ?: 1)), HRTIMER_MODE_REL_HARD);
	pr_info("hx711-sim: %u Hz, power-down after %u us SCK high\n", rate_hz, pd_threshold_us);
	return 0;

err_pdev:
	platform_device_unregister(s->pdev);
err_free:
	kfree(s);
	return ret;
}

static void __exit hx711_sim_exit(void)
{
	struct hx711_sim *s = hx;

	hrtimer_cancel(&s->timer);
	gpiochip_remove(&s->gc);
	hx = NULL;
	platform_device_unregister(s->pdev);
	kfree(s);
}

module_init(hx711_sim_init);
module_exit(hx711_sim_exit);

MODULE_DESCRIPTION("Emulated HX711 load-cell ADC on a GPIO chip, for PlumScale's kernel tests");
MODULE_LICENSE("GPL");
