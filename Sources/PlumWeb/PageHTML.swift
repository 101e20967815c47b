/// The page at `/`: plain HTML served by the binary, with its style and script beside it
/// (`/app.css`, `/app.js`); nothing is loaded from elsewhere.
enum PageHTML {
    static let text = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>PlumScale</title>
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        </head>
        <body>
        <header>
          <h1>PlumScale</h1>
          <span id="link" class="link down" role="status">connecting…</span>
          <form id="login" class="login" hidden>
            <input id="password" type="password" placeholder="password" autocomplete="current-password"
                   aria-label="password">
            <button id="login-button" type="submit">Log in</button>
          </form>
          <button id="logout" hidden>Log out</button>
        </header>
        <p id="message" class="message" role="alert" hidden></p>
        <section id="setup" class="setup" aria-label="first run" hidden>
          <h2>Set the scale up</h2>
          <p id="setup-state"></p>
          <div class="setup-step">
            <label><input id="setup-watch" type="checkbox" checked> watch an HX711 on</label>
            DT <input id="setup-dout" value="GPIO5" size="8" aria-label="HX711 DT line">
            SCK <input id="setup-sck" value="GPIO6" size="8" aria-label="HX711 SCK line">
            <button id="setup-probe">Find the hardware</button>
          </div>
          <p id="setup-found"></p>
          <ul id="setup-choices" class="setup-choices"></ul>
          <button id="setup-preview" disabled>Preview the configuration</button>
          <pre id="setup-diff" class="setup-diff"></pre>
          <label id="setup-confirm-line" hidden><input id="setup-confirm" type="checkbox">
            Replace the file there with this</label>
          <button id="setup-apply" disabled>Apply and restart plumscaled</button>
          <p id="setup-message" class="message" role="status"></p>
          <div id="setup-calibrate"></div>
        </section>
        <main id="pans" class="pans" aria-live="polite"></main>
        <p id="status-warning" class="message" role="alert" hidden></p>
        <section id="weighing" class="weighing" aria-label="weighing session">
          <div class="weighing-head">
            <h2>Session <span id="session-name"></span></h2>
            <span id="session-state" class="session-state"></span>
            <form id="session-start" class="session-actions" hidden>
              <input id="session-new-name" maxlength="64" placeholder="name, such as crate-12"
                     aria-label="session name">
              <button id="session-start-button" type="submit">Start</button>
            </form>
            <button id="session-stop" hidden>Stop</button>
            <a id="session-export" class="button" href="/api/weighing/session.csv" download hidden>Export CSV</a>
          </div>
          <p id="session-message" class="session-message"></p>
          <div class="weighing-body">
            <dl id="session-stats" class="stats">
              <dt>count</dt><dd data-figure="count">–</dd>
              <dt>total</dt><dd data-figure="total">–</dd>
              <dt>mean</dt><dd data-figure="mean">–</dd>
              <dt>min</dt><dd data-figure="min">–</dd>
              <dt>max</dt><dd data-figure="max">–</dd>
              <dt>heaviest</dt><dd data-figure="heaviest">–</dd>
              <dt>std dev</dt><dd data-figure="std_dev">–</dd>
            </dl>
            <svg id="session-histogram" class="histogram" viewBox="0 0 320 140" role="img"
                 aria-label="items per weight class"></svg>
          </div>
          <div class="item-tables">
            <table id="session-items" class="items">
              <caption>items of the session, newest first</caption>
              <thead><tr><th>#</th><th>time</th><th>grams</th><th>class</th><th>flags</th></tr></thead>
              <tbody></tbody>
            </table>
            <table id="item-events" class="items">
              <caption>fruit placed and removed, newest first</caption>
              <thead>
                <tr><th>seq</th><th>time</th><th>pan</th><th>event</th><th>grams</th><th>class</th><th>flags</th></tr>
              </thead>
              <tbody></tbody>
            </table>
          </div>
        </section>
        <footer id="status" class="status"></footer>
        <template id="pan-template">
          <section class="pan">
            <div class="pan-head"><h2 class="name"></h2><span class="heaviest-label" hidden>heaviest</span></div>
            <div class="grams">–</div>
            <div class="bar"><div class="fill"></div></div>
            <div class="percent"></div>
            <div class="count-line"><span class="count"></span><span class="check"></span></div>
            <div class="markers">
              <span class="marker stable">stable</span>
              <span class="marker zero">zero</span>
              <span class="marker overload">overload</span>
              <span class="marker state"></span>
            </div>
            <div class="actions" hidden>
              <button class="tare">Tare</button>
              <button class="zero-button">Zero</button>
              <button class="calibrate">Calibrate…</button>
              <select class="named-tare" aria-label="named tare"><option value="">(none)</option></select>
              <button class="keep-tare">Keep tare as…</button>
            </div>
            <svg class="chart" viewBox="0 0 300 80" preserveAspectRatio="none" role="img"
                 aria-label="history"></svg>
            <div class="chart-caption">last hour: min, mean, max per minute</div>
          </section>
        </template>
        <dialog id="wizard">
          <h2>Calibrate <span id="wizard-sensor"></span></h2>
          <ol class="steps">
            <li id="step-empty">Empty the pan and keep it still.
              <button id="wizard-zero">The pan is empty</button></li>
            <li id="step-point">Place a known weight, type its grams, and take it.
              <input id="wizard-grams" type="number" min="0" step="any" placeholder="grams" aria-label="known grams">
              <button id="wizard-point">Take this weight</button>
              <button id="wizard-fit">Show the fit</button></li>
            <li id="step-fit">Check the fit, then save it.
              <table id="wizard-table"><thead><tr><th>known g</th><th>residual g</th></tr></thead>
                <tbody></tbody></table>
              <p id="wizard-quality"></p>
              <button id="wizard-save">Save and use</button></li>
          </ol>
          <p id="wizard-message" class="message" role="status"></p>
          <button id="wizard-cancel">Cancel</button>
        </dialog>
        </body>
        </html>
        """#
}
