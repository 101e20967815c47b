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
        <main id="pans" class="pans" aria-live="polite"></main>
        <p id="status-warning" class="message" role="alert" hidden></p>
        <footer id="status" class="status"></footer>
        <template id="pan-template">
          <section class="pan">
            <div class="pan-head"><h2 class="name"></h2><span class="heaviest-label" hidden>heaviest</span></div>
            <div class="grams">–</div>
            <div class="bar"><div class="fill"></div></div>
            <div class="percent"></div>
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
