/*
 * The page's weighing-session part (docs/items.md, docs/web.md): the figures, the histogram of
 * the classes, the session's items and the live list of fruit placed and removed; Start, Stop
 * and Export CSV after login. Served after `app.js` in the same `/app.js`, whose `$`,
 * `post`, `say` and `csrf` it uses.
 *
 * The daemon's `item` and `session` frames keep it live: an item frame adds a line to the live
 * list at once; a session frame carries the new figures but not the items, so the session is
 * fetched again from `GET /api/weighing/session`, one fetch at a time however fast plums come.
 */
let weighing = null;        // the session shown: the running one, else the latest stopped one
let weighingBusy = false;   // a fetch is on its way
let weighingAgain = false;  // news came while it was
const itemEventsKept = 50;

// Grams with the decimals of the division (0.1 g: one), as the CLI and the CSV print them.
function fixed(grams, division) {
  let decimals = 0, step = division || 0.1;
  while (decimals < 6 && Math.abs(step - Math.round(step)) > 1e-9) { step *= 10; decimals++; }
  return grams.toFixed(decimals);
}

function clock(text) {
  const date = typeof text === "number" ? new Date(text * 1000) : new Date(text);
  return isNaN(date) ? String(text) : date.toLocaleTimeString([], { hour12: false });
}

function row(body, cells, first) {
  const tr = document.createElement("tr");
  for (const cell of cells) tr.insertCell().textContent = cell;
  body.insertBefore(tr, first ? body.firstChild : null);
  return tr;
}

function showItemEvent(item) {
  const body = $("item-events").querySelector("tbody");
  const tr = row(body, [item.seq, clock(item.time), item.sensor, item.event, fixed(item.grams, item.division),
                        item.weight_class || "", item.flags.join(", ")], true);
  tr.className = item.event;
  while (body.rows.length > itemEventsKept) body.deleteRow(-1);
}

function sessionNews(frame) {
  const session = (frame.sessions || [])[0];
  if (session) showFigures(session);
  loadWeighing();
}

async function loadWeighing() {
  if (weighingBusy) { weighingAgain = true; return; }
  weighingBusy = true;
  try {
    const response = await fetch("/api/weighing/session");
    const reply = await response.json();
    const session = reply.ok ? (reply.sessions || [])[0] : null;
    showSession(session || null, session ? "" : reply.message);
  } catch (e) {
    $("session-message").textContent = "the session could not be read: " + e.message;
  } finally {
    weighingBusy = false;
    if (weighingAgain) { weighingAgain = false; loadWeighing(); }
  }
}

function showSession(session, message) {
  weighing = session;
  $("session-message").textContent = message || "";
  $("weighing").dataset.state = !session ? "none" : session.stopped ? "stopped" : "running";
  if (session) showFigures(session);
  else { $("session-name").textContent = ""; $("session-state").textContent = "none yet"; }
  const body = $("session-items").querySelector("tbody");
  body.replaceChildren();
  for (const item of (session && session.items) || []) {
    row(body, [item.item, clock(item.at), fixed(item.grams, session.division), item.weight_class || "",
               item.flags.join(", ")], true).dataset.grams = String(item.grams);
  }
  showSessionControls();
}

function showFigures(s) {
  $("session-name").textContent = s.name;
  $("session-state").textContent = s.stopped ? "stopped " + clock(s.stopped) :
    "running on " + s.sensor + " since " + clock(s.started);
  const g = (value) => value == null ? "–" : fixed(value, s.division) + " g";
  const figures = { count: String(s.count), total: g(s.total), mean: g(s.mean), min: g(s.min), max: g(s.max),
                    heaviest: s.heaviest_item == null ? "–" : "#" + s.heaviest_item, std_dev: g(s.std_dev) };
  for (const dd of $("session-stats").querySelectorAll("dd")) {
    dd.textContent = figures[dd.dataset.figure];
    dd.dataset.value = s[dd.dataset.figure === "heaviest" ? "heaviest_item" : dd.dataset.figure] ?? "";
  }
  drawHistogram(s);
}

// A bar per class, lightest band first, scaled to the largest; items below the first band
// (or all, without bands) as "none".
function drawHistogram(s) {
  const bars = (s.classes || []).map((c) => ({ name: c.name, count: c.count }));
  if (s.unclassified > 0 || bars.length === 0) bars.push({ name: "none", count: s.unclassified });
  const largest = Math.max(1, ...bars.map((b) => b.count));
  const width = 320 / bars.length, top = 18, height = 96;
  const svg = $("session-histogram");
  const ns = svg.namespaceURI;  // SVG's; the page names no address of another site
  const element = (name, attributes, text) => {
    const node = document.createElementNS(ns, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (text != null) node.textContent = text;
    return node;
  };
  svg.replaceChildren(...bars.map((bar, index) => {
    const h = bar.count / largest * height, x = index * width;
    const group = element("g", { class: "class-bar", "data-class": bar.name, "data-count": bar.count });
    group.append(element("rect", { x: x + width * 0.15, y: top + height - h, width: width * 0.7, height: h }),
                 element("text", { class: "bar-count", x: x + width / 2, y: top + height - h - 4 }, bar.count),
                 element("text", { class: "label", x: x + width / 2, y: 134 }, bar.name));
    return group;
  }));
}

// Start when none runs, Stop while one does, Export once it has items: after login only.
function showSessionControls() {
  const running = !!weighing && !weighing.stopped;
  $("session-start").hidden = !csrf || running;
  $("session-stop").hidden = !csrf || !running;
  $("session-export").hidden = !csrf || !weighing || weighing.count === 0;
  const csv = "/api/weighing/session.csv";
  if (weighing) $("session-export").href = csv + "?name=" + encodeURIComponent(weighing.name);
}

async function changeSession(body) {
  try {
    const reply = await post("/api/weighing/session", body);
    $("session-message").textContent = reply.message || "";
    say("");
  } catch (e) { $("session-message").textContent = e.message; }
  loadWeighing();
}

$("session-start").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("session-new-name").value.trim();
  if (!name) { $("session-message").textContent = "type a name for the session, such as crate-12"; return; }
  $("session-new-name").value = "";
  changeSession({ action: "start", name });
});
$("session-stop").onclick = () => changeSession({ action: "stop" });
