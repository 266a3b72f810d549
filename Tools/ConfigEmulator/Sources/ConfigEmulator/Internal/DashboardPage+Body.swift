extension DashboardPage {
    /// The page's markup; the script fills the lists.
    static let body = #"""
        <header class="top">
          <h1>ConfigDirector emulator</h1>
          <p id="live" class="live" role="status" aria-live="polite">Connecting…</p>
        </header>
        <p id="status" class="status" role="status" aria-live="polite"></p>
        <main class="layout">
          <section class="panel configs" aria-labelledby="configs-title">
            <h2 id="configs-title">Configs <span id="config-count" class="count"></span></h2>
            <div id="empty" class="empty" hidden>
              <p><strong>No configs yet.</strong> Add one with “Add a config” below, or start the emulator with
                <code>--configs FILE</code> (format: Tools/ConfigEmulator/README.md).</p>
            </div>
            <div id="configs"></div>
            <details class="add">
              <summary>Add a config</summary>
              <form id="add-config" novalidate>
                <label>Key <input name="key" required autocomplete="off"></label>
                <label>Type
                  <select name="type">
                    <option>boolean</option><option>string</option><option>integer</option><option>float</option>
                    <option>enum</option><option>url</option><option>json</option><option>custom</option>
                  </select>
                </label>
                <label>Value <input name="value" autocomplete="off" placeholder="empty: no value"></label>
                <button type="submit">Add config</button>
                <p class="error" role="alert"></p>
              </form>
            </details>
          </section>
          <div class="side">
          <section class="panel" aria-labelledby="connect-title" id="connect">
            <h2 id="connect-title">Connect an app</h2>
            <dl class="facts">
              <dt>Base URL</dt><dd><code id="base-url"></code></dd>
              <dt>SDK key</dt><dd><code id="sdk-key"></code></dd>
              <dt>Last event</dt><dd><code id="last-event">–</code></dd>
            </dl>
            <div id="no-app" class="empty" hidden>
              <p><strong>No app connected.</strong> Point the SDK at this emulator:</p>
              <pre id="snippet"></pre>
            </div>
          </section>
          <section class="panel" aria-labelledby="streams-title">
            <h2 id="streams-title">Open streams <span id="stream-count" class="count"></span></h2>
            <div class="scroll"><table id="streams">
              <thead><tr><th scope="col">#</th><th scope="col">Kind</th><th scope="col">Context id</th>
                <th scope="col">Traits</th><th scope="col">Opened</th><th scope="col">Last event id</th></tr></thead>
              <tbody></tbody>
            </table></div>
          </section>
          <section class="panel" aria-labelledby="telemetry-title" id="telemetry">
            <h2 id="telemetry-title">Telemetry <span id="batch-count" class="count"></span></h2>
            <ul id="sdks" class="plain"></ul>
            <div class="scroll"><table id="evaluations">
              <thead><tr><th scope="col">Key</th><th scope="col">Reason</th><th scope="col">Evaluations</th></tr></thead>
              <tbody></tbody>
            </table></div>
            <button type="button" id="clear-records">Forget requests and telemetry</button>
          </section>
          <section class="panel" aria-labelledby="faults-title" id="faults">
            <h2 id="faults-title">Faults</h2>
            <div class="buttons">
              <button type="button" id="drop-streams">Drop every stream</button>
              <button type="button" id="malformed-event">Send a malformed event</button>
              <button type="button" id="clear-faults">Forget pending faults</button>
            </div>
            <form id="status-fault" class="inline" novalidate>
              <fieldset><legend>Answer with a status</legend>
                <label>Path <select name="path">
                  <option>/client/sse/v1</option><option>/client/polling/v1</option><option>/client/telemetry/v1</option>
                </select></label>
                <label>Status <input name="status" value="503" inputmode="numeric" size="4"></label>
                <label>Count <input name="count" value="1" inputmode="numeric" size="3"></label>
                <label>Retry-After <input name="retryAfter" placeholder="seconds or a date" size="10"></label>
                <button type="submit">Inject</button>
                <p class="error" role="alert"></p>
              </fieldset>
            </form>
            <form id="stall-fault" class="inline" novalidate>
              <fieldset><legend>Stall the next response</legend>
                <label>Seconds <input name="seconds" value="5" inputmode="decimal" size="4"></label>
                <label>Path <select name="path">
                  <option value="">any /client/… path</option><option>/client/sse/v1</option>
                  <option>/client/polling/v1</option><option>/client/telemetry/v1</option>
                </select></label>
                <button type="submit">Inject</button>
                <p class="error" role="alert"></p>
              </fieldset>
            </form>
          </section>
          </div>
        </main>
        <dialog id="token-dialog" aria-labelledby="token-title">
          <form method="dialog" id="token-form">
            <h2 id="token-title">Admin token</h2>
            <p>This emulator listens beyond loopback, so its admin API needs the token it printed at start
              (or the one given with <code>--admin-token</code>). It is kept for this tab only.</p>
            <label>Token <input name="token" type="password" autocomplete="off" required></label>
            <button type="submit">Use this token</button>
          </form>
        </dialog>
        """#
}
