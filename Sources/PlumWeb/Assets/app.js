/*
 * The page's script: the live cards over `/ws`, login, the actions, the calibration wizard
 * and the history charts; the weighing session's part is `session.js` and the first run's
 * `setup.js`, served after it in one `/app.js`. Plain JavaScript, no libraries.
 */
"use strict";
const pans = new Map();
let csrf = null;
let wizardSensor = null;
let tareLibrary = [];
const $ = (id) => document.getElementById(id);

function say(text) { const m = $("message"); m.textContent = text || ""; m.hidden = !text; }

function card(sensor) {
  if (pans.has(sensor)) return pans.get(sensor);
  const node = $("pan-template").content.firstElementChild.cloneNode(true);
  node.dataset.sensor = sensor;
  node.querySelector(".name").textContent = sensor;
  node.querySelector(".tare").onclick = () => act("/api/tare", { sensor });
  node.querySelector(".zero-button").onclick = () => act("/api/zero", { sensor });
  node.querySelector(".calibrate").onclick = () => openWizard(sensor);
  // A named tare in use, or "(none)": a preset tare of 0 clears the tare.
  node.querySelector(".named-tare").onchange = (event) => {
    const name = event.target.value;
    act("/api/tare", name ? { sensor, name } : { sensor, grams: 0 });
  };
  node.querySelector(".keep-tare").onclick = async () => {
    const name = prompt("A name for the tare in use on " + sensor + ", such as bowl:");
    if (!name) return;
    try { showTares(await post("/api/tares", { save: name.trim(), sensor })); say(""); }
    catch (e) { say(e.message); }
  };
  node.querySelector(".actions").hidden = !csrf;
  $("pans").appendChild(node);
  pans.set(sensor, node);
  drawHistory(sensor);
  if (tareLibrary.length) showTares({ tares: tareLibrary });
  return node;
}

function showWeight(w) {
  const node = card(w.sensor);
  // A sensor that delivers no samples: its state and hint stand where the weight was.
  const state = node.querySelector(".state");
  if (w.stale) state.textContent = w.state + (w.reason ? ": " + w.reason : "");
  else if (node.classList.contains("unavailable")) state.textContent = "";
  node.classList.toggle("unavailable", !!w.stale);
  node.querySelector(".grams").textContent = w.stale ? "–" : w.display;
  const percent = w.percent == null ? 0 : w.percent;
  const fill = node.querySelector(".fill");
  fill.style.width = Math.max(0, Math.min(100, percent)) + "%";
  fill.style.background = w.rgb;
  node.querySelector(".percent").textContent = w.overload ? "100%+" :
    (w.percent == null ? "" : percent.toFixed(1) + "% of force");
  node.querySelector(".stable").classList.toggle("on", w.stable);
  node.querySelector(".zero").classList.toggle("on", w.zero);
  node.querySelector(".overload").classList.toggle("on", w.overload || w.underload);
  node.querySelector(".overload").textContent = w.underload ? "underload" : "overload";
  node.classList.toggle("heaviest", w.heaviest);
  node.querySelector(".heaviest-label").hidden = !w.heaviest;
  node.dataset.grams = w.grams == null ? "" : String(w.grams);
  showCountAndCheck(node, w);
  if (node.dataset.tare !== String(w.tare)) { node.dataset.tare = String(w.tare); chooseTare(node); }
}

// A counting pan shows its pieces, "≈12.4 pcs, ambiguous" when the daemon would not round;
// a check-weighing pan its verdict in colour (stable readings only carry one).
function showCountAndCheck(node, w) {
  const count = node.querySelector(".count");
  const ambiguous = w.count == null && w.count_ratio != null;
  count.textContent = w.stale ? "" : w.count != null ? w.count + " pcs" :
    ambiguous ? "≈" + w.count_ratio.toFixed(1) + " pcs, ambiguous" : "";
  count.classList.toggle("ambiguous", ambiguous);
  const check = node.querySelector(".check");
  const verdict = w.stale ? "" : (w.check || "");
  check.textContent = verdict;
  check.className = "check" + (verdict ? " " + verdict : "");
  node.dataset.check = verdict;
}

// The select shows the named tare whose weight is the tare in use (to half a division).
function chooseTare(node) {
  const tare = parseFloat(node.dataset.tare || "0");
  const named = tareLibrary.find((t) => tare > 0 && Math.abs(t.grams - tare) < 0.05);
  node.querySelector(".named-tare").value = named ? named.name : "";
}

function showTares(frame) {
  tareLibrary = frame.tares || [];
  for (const node of pans.values()) {
    const select = node.querySelector(".named-tare");
    select.replaceChildren(new Option("(none)", ""),
      ...tareLibrary.map((t) => new Option(t.name + " (" + t.grams + " g)", t.name)));
    chooseTare(node);
  }
}

function loadTares() {
  fetch("/api/tares").then((r) => r.ok ? r.json() : null).then((f) => { if (f) showTares(f); })
    .catch(() => {});
}

function flash(sensor) {
  const node = card(sensor);
  node.classList.remove("flash");
  void node.offsetWidth;
  node.classList.add("flash");
}

function handle(frame) {
  switch (frame.type) {
    case "weight": showWeight(frame); break;
    case "cue": if (frame.cue === "max-force") flash(frame.sensor); break;
    case "tares": showTares(frame); break;
    case "item": showItemEvent(frame); break;
    case "session": sessionNews(frame); break;
    case "state":
      card(frame.sensor).querySelector(".state").textContent = frame.state === "ok" ? "" :
        frame.state + (frame.reason ? ": " + frame.reason : "");
      break;
    case "status":
      $("link").textContent = frame.connected ? "live" : (frame.message || "not connected");
      $("link").className = "link " + (frame.connected ? "up" : "down");
      break;
  }
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onmessage = (event) => handle(JSON.parse(event.data));
  ws.onopen = () => { loadTares(); loadWeighing(); };  // changes made while this page was away
  ws.onclose = () => {
    $("link").textContent = "reconnecting…"; $("link").className = "link down";
    setTimeout(connect, 1000);
  };
}

async function post(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body),
                                       credentials: "same-origin" });
  let data = {};
  try { data = await response.json(); } catch (e) { data = {}; }
  if (!response.ok) {
    const message = (data.error && data.error.message) || data.message || response.statusText;
    if (response.status === 401) setLoggedIn(null);
    throw new Error(message);
  }
  return data;
}

async function act(path, body) {
  try {
    const reply = await post(path, body);
    say(reply.ok ? "" : (reply.message || "refused"));
  } catch (e) { say(e.message); }
}

function setLoggedIn(token, mayLogIn = true) {
  csrf = token;
  $("login").hidden = !!token || !mayLogIn;
  $("logout").hidden = !token;
  for (const node of pans.values()) node.querySelector(".actions").hidden = !token;
  showSessionControls();
  checkSetup(token);
}

$("login").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const reply = await post("/api/login", { password: $("password").value });
    $("password").value = "";
    setLoggedIn(reply.csrf); say("");
  } catch (e) { say("login: " + e.message); }
});
$("logout").onclick = async () => { try { await post("/api/logout", {}); } catch (e) {} setLoggedIn(null); };

async function step(name, extra = {}) {
  const reply = await post("/api/calibrate", Object.assign({ sensor: wizardSensor, step: name }, extra));
  $("wizard-message").textContent = reply.message || reply.notice || "";
  return reply;
}

function openWizard(sensor) {
  wizardSensor = sensor;
  $("wizard-sensor").textContent = sensor;
  $("wizard-message").textContent = "";
  $("wizard-table").querySelector("tbody").innerHTML = "";
  $("wizard-quality").textContent = "";
  for (const id of ["step-empty", "step-point", "step-fit"]) $(id).classList.remove("done");
  $("wizard").showModal();
  step("begin").catch((e) => { $("wizard-message").textContent = e.message; });
}

$("wizard-zero").onclick = async () => {
  $("wizard-message").textContent = "waiting for a stable empty pan…";
  try { if ((await step("zero")).ok) $("step-empty").classList.add("done"); }
  catch (e) { $("wizard-message").textContent = e.message; }
};
$("wizard-point").onclick = async () => {
  const grams = parseFloat($("wizard-grams").value);
  if (!(grams > 0)) { $("wizard-message").textContent = "type the known weight in grams"; return; }
  $("wizard-message").textContent = "waiting for " + grams + " g to settle…";
  try { if ((await step("point", { grams })).ok) $("step-point").classList.add("done"); }
  catch (e) { $("wizard-message").textContent = e.message; }
};
$("wizard-fit").onclick = async () => {
  try {
    const fit = await step("fit");
    const body = $("wizard-table").querySelector("tbody");
    body.innerHTML = "";
    (fit.grams || []).forEach((g, i) => {
      const row = body.insertRow();
      row.insertCell().textContent = g.toFixed(1);
      row.insertCell().textContent = ((fit.residuals || [])[i] || 0).toFixed(3);
    });
    $("wizard-quality").textContent = fit.quality || "";
    // Zero and one weight fit exactly whatever was on the pan: suggest a third point.
    if (fit.ok && new Set(fit.grams || []).size <= 2)
      $("wizard-message").textContent = "nothing checks a fit through zero and one weight: "
        + "place a different known weight as a third point before saving";
  } catch (e) { $("wizard-message").textContent = e.message; }
};
$("wizard-save").onclick = async () => {
  try {
    const saved = await step("commit");
    if (saved.ok) { $("step-fit").classList.add("done"); setTimeout(() => $("wizard").close(), 1500); }
  } catch (e) { $("wizard-message").textContent = e.message; }
};
$("wizard-cancel").onclick = async () => {
  try { await step("cancel"); } catch (e) {}
  $("wizard").close();
};

// The hour chart: per minute the min–max band and the mean, on axes in grams and local clock
// times. Drawn in the chart's own pixels (its viewBox is its size), so the labels keep their
// size on a phone; drawn again when the card changes width.
const chartFont = 10;             // px, as app.css sets it: the label sizes below assume it
const chartCharWidth = 6;         // px, a generous width of one label character at that size
const chartMinuteSteps = [1, 2, 5, 10, 15, 20, 30, 60];
const chartResized = new ResizeObserver((entries) => {
  for (const entry of entries) if (entry.target.history) drawChart(entry.target, entry.target.history.rows);
});

// The smallest of 1, 2, 5 × 10^k that is at least `span`.
function roundStep(span) {
  const power = Math.pow(10, Math.floor(Math.log10(span)));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= span * (1 - 1e-9));
}

// The gram axis: the data's range and 5 % more on each side (a range under 1 g, a flat line or
// one point, becomes 1 g around its middle), with ticks at the multiples inside it of the
// smallest round step that keeps ticks `spacing` pixels apart over `pixels`.
function gramAxis(low, high, pixels, spacing) {
  if (high - low < 1) { const middle = (low + high) / 2; low = middle - 0.5; high = middle + 0.5; }
  const pad = (high - low) * 0.05;
  low -= pad; high += pad;
  const step = roundStep((high - low) * spacing / pixels);
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const ticks = [];
  for (let i = Math.ceil(low / step); i <= Math.floor(high / step); i++) ticks.push(Math.round(i * step * 1e6) / 1e6 || 0);
  return { low, high, ticks, label: (g) => g.toFixed(decimals) + " g" };
}

function hhmm(epoch) {
  const d = new Date(epoch * 1000);
  return String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0");
}

// The time axis: local clock times at whole multiples of a round number of minutes, the
// fewest minutes that leave each label room.
function timeTicks(start, end, pixels) {
  const room = 5 * chartCharWidth + 30;
  const minutes = chartMinuteSteps.find((m) => m * 60 / (end - start) * pixels >= room) || 60;
  const d = new Date(start * 1000);
  d.setSeconds(0, 0);
  while (d.getTime() / 1000 < start || d.getMinutes() % minutes !== 0) d.setMinutes(d.getMinutes() + 1);
  const ticks = [];
  for (; d.getTime() / 1000 <= end; d.setMinutes(d.getMinutes() + minutes)) ticks.push(d.getTime() / 1000);
  return ticks;
}

// Draws `rows` (the minutes of /api/history, oldest first; null when it could not be read)
// into `svg` for the hour up to `now` (seconds since the epoch).
function drawChart(svg, rows, now = Date.now() / 1000) {
  const box = svg.getBoundingClientRect();
  const width = Math.round(box.width), height = Math.round(box.height);
  if (width < 40 || height < 40) return;  // not laid out (yet): drawn when it is
  const ns = svg.namespaceURI;
  const parts = [];
  const add = (name, attributes, text) => {
    const node = document.createElementNS(ns, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (text != null) node.textContent = text;
    parts.push(node);
  };
  const start = now - 3600;
  const data = (rows || []).filter((r) => r.epoch + 30 >= start && r.epoch + 30 <= now);
  const plotTop = chartFont, plotBottom = height - chartFont - 10;
  let axis = null;
  if (data.length) {
    axis = gramAxis(Math.min(...data.map((r) => r.min)), Math.max(...data.map((r) => r.max)),
                    plotBottom - plotTop, chartFont * 2);
  }
  const widest = axis ? Math.max(...axis.ticks.map((g) => axis.label(g).length)) : 0;
  const left = axis ? widest * chartCharWidth + 8 : 6, right = width - 2.5 * chartCharWidth - 2;
  const x = (t) => left + (t - start) / 3600 * (right - left);
  const y = (g) => axis ? Math.min(plotBottom, Math.max(plotTop,
    plotBottom - (g - axis.low) / (axis.high - axis.low) * (plotBottom - plotTop))) : plotBottom;
  const f = (v) => v.toFixed(1);

  // A time label may reach left of the plot, under the gram labels, unless the lowest of those
  // sits at the plot's foot, where they would meet.
  const labelsFrom = axis && axis.ticks.length && plotBottom - y(axis.ticks[0]) < chartFont ? left - 4 : 0;
  for (const t of timeTicks(start, now, right - left)) {
    add("line", { class: "grid", x1: f(x(t)), y1: plotTop, x2: f(x(t)), y2: plotBottom });
    add("line", { class: "tick", x1: f(x(t)), y1: plotBottom, x2: f(x(t)), y2: plotBottom + 4 });
    const half = 2.5 * chartCharWidth;
    if (x(t) - half >= labelsFrom && x(t) + half <= width)
      add("text", { class: "x-label", x: f(x(t)), y: plotBottom + 4 + chartFont }, hhmm(t));
  }
  if (axis) {
    for (const g of axis.ticks) {
      add("line", { class: "grid", x1: left, y1: f(y(g)), x2: f(right), y2: f(y(g)) });
      add("line", { class: "tick", x1: left - 4, y1: f(y(g)), x2: left, y2: f(y(g)) });
      add("text", { class: "y-label", x: left - 6, y: f(y(g) + chartFont * 0.35) }, axis.label(g));
    }
    add("line", { class: "axis", x1: left, y1: plotTop, x2: left, y2: plotBottom });
  }
  add("line", { class: "axis", x1: left, y1: plotBottom, x2: f(right), y2: plotBottom });

  // Runs of consecutive minutes: a missing minute (no readings, the service stopped) is a gap.
  const runs = [];
  for (const r of data) {
    const run = runs[runs.length - 1];
    if (run && r.epoch - run[run.length - 1].epoch <= 90) run.push(r);
    else runs.push([r]);
  }
  for (const run of runs) {
    const point = (r, g) => f(x(r.epoch + 30)) + "," + f(y(g));
    if (run.length === 1) {
      const r = run[0];
      add("line", { class: "whisker", x1: f(x(r.epoch + 30)), y1: f(y(r.min)), x2: f(x(r.epoch + 30)), y2: f(y(r.max)) });
      add("circle", { class: "dot", cx: f(x(r.epoch + 30)), cy: f(y(r.mean)), r: 2.5 });
      continue;
    }
    const band = run.map((r) => point(r, r.max)).concat(run.slice().reverse().map((r) => point(r, r.min)));
    add("polygon", { class: "band", points: band.join(" ") });
    add("polyline", { class: "mean", points: run.map((r) => point(r, r.mean)).join(" ") });
  }
  const empty = rows == null ? "the history could not be read" : data.length ? "" : "no readings in the last hour";
  if (empty) add("text", { class: "empty", x: f((left + right) / 2), y: f((plotTop + plotBottom) / 2 + 4) }, empty);

  svg.setAttribute("viewBox", "0 0 " + width + " " + height);
  svg.setAttribute("aria-label", "the last hour: " + (empty || data.length + " minutes, " +
    axis.label(Math.min(...data.map((r) => r.min))) + " to " + axis.label(Math.max(...data.map((r) => r.max)))));
  svg.dataset.minutes = String(data.length);
  svg.dataset.newest = data.length ? String(data[data.length - 1].epoch) : "";
  svg.replaceChildren(...parts);
}

async function drawHistory(sensor) {
  const node = pans.get(sensor);
  if (!node) return;
  let rows = null;
  try {
    const response = await fetch("/api/history?format=json&since=1h&sensor=" + encodeURIComponent(sensor));
    if (response.ok) rows = await response.json();
  } catch (e) { rows = null; }
  const svg = node.querySelector(".chart");
  if (!svg.history) chartResized.observe(svg);
  svg.history = { rows };
  drawChart(svg, rows);
}

// The status line (/api/status): uptimes, restarts, faults, space, the history; text only.
function ago(seconds) {
  const s = Math.floor(seconds), d = Math.floor(s / 86400), h = Math.floor(s / 3600) % 24;
  const m = Math.floor(s / 60) % 60;
  return d > 0 ? d + " d " + h + " h" : h > 0 ? h + " h " + m + " min" : m > 0 ? m + " min" : s + " s";
}
async function showStatus() {
  let status;
  try { status = await (await fetch("/api/status")).json(); } catch (e) { return; }
  const parts = (status.services || []).map((s) => s.service + " up " + ago(s.uptime));
  const daemon = status.daemon;
  if (daemon) {
    parts.push("plumscaled up " + ago(daemon.uptime || 0) + (daemon.starts
      ? ", " + (daemon.starts - 1) + " restarts (" + (daemon.unclean_stops || 0) + " not clean)" : ""));
    if (daemon.state_free_bytes !== undefined)
      parts.push("state " + (daemon.state_free_bytes / 1e6).toFixed(0) + " MB free");
  }
  for (const d of status.devices || [])
    if (d.last_fault) parts.push(d.sensor + " last fault " + d.last_fault + " at " + d.last_fault_time);
  const h = status.history;
  if (h) parts.push("history " + (h.bytes / 1e6).toFixed(1) + " MB"
    + (h.oldest ? " since " + new Date(h.oldest * 1000).toISOString().slice(0, 10) : ""));
  $("status").textContent = parts.join(" · ");
  $("status-warning").textContent = "warning: " + (status.warnings || []).join("; ");
  $("status-warning").hidden = !(status.warnings || []).length;
}
showStatus();
setInterval(showStatus, 60000);

fetch("/api/session").then((r) => r.json()).then((s) => setLoggedIn(s.csrf || null, s.may_log_in))
  .catch(() => setLoggedIn(null));
connect();
// A minute's summary is closed when the first reading of the next minute arrives: the charts
// are fetched again just after each minute begins, so the newest minute shows within seconds.
function everyMinute() {
  for (const sensor of pans.keys()) drawHistory(sensor);
  setTimeout(everyMinute, 62000 - Date.now() % 60000);
}
setTimeout(everyMinute, 62000 - Date.now() % 60000);
