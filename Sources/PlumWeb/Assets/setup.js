/*
 * The page's first run (docs/web.md, "The first run"): when an administrator logs in on a
 * scale that is not set up, `plumscale setup`'s steps in the browser. The hardware found, a
 * choice of sensors, the file and its diff with a confirmation when one is there, apply, then
 * the calibration wizard for each sensor chosen. Each step is one request to `/api/setup`,
 * which plumscale-web relays to the setup socket. Served after `session.js` in the same
 * `/app.js`, whose `$`, `csrf` and `openWizard` it uses; nobody logged out sees any of it.
 */
let setupChoices = [];      // the probe's choices: { what, sensor }
let setupConfirm = null;    // the token of the diff shown, when a file would be replaced

// One request to the setup socket, through plumscale-web; its reply, or an Error.
async function setupAsk(body) {
  const response = await fetch("/api/setup", { method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf || "" }, body: JSON.stringify(body) });
  let reply = {};
  try { reply = await response.json(); } catch (e) { reply = {}; }
  if (!response.ok || reply.ok === false) {
    const error = typeof reply.error === "string" ? reply.error : (reply.error && reply.error.message);
    throw new Error(error || reply.message || response.statusText);
  }
  return reply;
}

function setupSay(text) { $("setup-message").textContent = text || ""; }

// After a login: the steps when the scale is not set up; after a logout, nothing.
async function checkSetup(token) {
  $("setup").hidden = true;
  if (!token) return;
  let state;
  try { state = await setupAsk({ request: "state" }); }
  catch (e) { console.log("setup: " + e.message); return; }
  if (state.set_up) return;
  $("setup").hidden = false;
  $("setup-state").textContent = "This scale is not set up yet" + (state.problem ? ": " + state.problem : "") +
    ". Find its hardware, choose its sensors, apply, then calibrate each.";
}

$("setup-probe").onclick = async () => {
  setupSay("probing the hardware…");
  $("setup-choices").replaceChildren();
  $("setup-preview").disabled = true;
  const hx711 = $("setup-watch").checked ? { dout: $("setup-dout").value.trim(), sck: $("setup-sck").value.trim() }
    : false;
  try {
    const reply = await setupAsk({ request: "probe", hx711 });
    $("setup-found").textContent = reply.summary;
    setupChoices = reply.choices || [];
    setupChoices.forEach((choice, index) => {
      const item = document.createElement("li");
      const box = document.createElement("input");
      box.type = "checkbox"; box.id = "setup-choice-" + index; box.checked = setupChoices.length === 1;
      const label = document.createElement("label");
      label.htmlFor = box.id; label.textContent = " " + choice.what + " ";
      const name = document.createElement("input");
      name.className = "setup-name"; name.value = choice.sensor.name; name.maxLength = 32;
      name.setAttribute("aria-label", "name for " + choice.what);
      item.append(box, label, name);
      $("setup-choices").appendChild(item);
    });
    $("setup-preview").disabled = setupChoices.length === 0;
    setupSay(setupChoices.length ? "choose the sensors to use, and their names"
      : "no sensor PlumScale can read was found: check the wiring against the README, or name the HX711's pins");
  } catch (e) { setupSay(e.message); }
};

function setupSensors() {
  const chosen = [];
  setupChoices.forEach((choice, index) => {
    if (!$("setup-choice-" + index).checked) return;
    const item = $("setup-choices").children[index];
    chosen.push(Object.assign({}, choice.sensor, { name: item.querySelector(".setup-name").value.trim() }));
  });
  return chosen;
}

$("setup-preview").onclick = async () => {
  setupConfirm = null;
  $("setup-apply").disabled = true;
  $("setup-confirm-line").hidden = true;
  $("setup-confirm").checked = false;
  try {
    const reply = await setupAsk({ request: "preview", sensors: setupSensors() });
    setupConfirm = reply.confirm || null;
    $("setup-diff").textContent = reply.unchanged ? reply.config + " is already as setup would write it"
      : (reply.exists ? reply.diff : reply.text);
    $("setup-confirm-line").hidden = !setupConfirm;
    $("setup-apply").disabled = !!setupConfirm;
    setupSay(setupConfirm ? reply.config + " exists and differs: the - lines go, the + lines come"
      : "this is the file setup writes");
  } catch (e) { setupSay(e.message); }
};
$("setup-confirm").onchange = () => { $("setup-apply").disabled = !$("setup-confirm").checked; };

$("setup-apply").onclick = async () => {
  setupSay("writing the configuration and restarting plumscaled…");
  $("setup-apply").disabled = true;
  try {
    const body = { request: "apply", sensors: setupSensors() };
    if (setupConfirm) body.confirm = setupConfirm;
    const reply = await setupAsk(body);
    setupSay("set up: plumscaled answers with " + reply.sensors.join(", ") + ". Now calibrate each sensor.");
    $("setup-calibrate").replaceChildren(...reply.calibrate.map((sensor) => {
      const button = document.createElement("button");
      button.textContent = "Calibrate " + sensor + "…";
      button.onclick = () => openWizard(sensor);
      return button;
    }));
    if (reply.calibrate.length) openWizard(reply.calibrate[0]);
  } catch (e) { setupSay(e.message); $("setup-apply").disabled = false; }
};
