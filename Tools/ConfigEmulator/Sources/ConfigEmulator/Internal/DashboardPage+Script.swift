extension DashboardPage {
    /// The page's script: follows `/admin/events` and calls the admin API, always with `X-Emulator-Admin`.
    static let script = #"""
        'use strict';
        const TOKEN_KEY = 'emulatorAdminToken';
        const $ = (selector, root = document) => root.querySelector(selector);
        const shown = new Map();
        let latest = null;
        let tokenWaiters = [];

        function el(tag, attributes = {}, ...children) {
          const node = document.createElement(tag);
          for (const [name, value] of Object.entries(attributes)) {
            if (value === false || value === undefined || value === null) continue;
            if (name === 'text') node.textContent = value;
            else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
            else node.setAttribute(name, value === true ? '' : value);
          }
          for (const child of children) if (child) node.append(child);
          return node;
        }

        function adminHeaders(json) {
          const headers = { 'X-Emulator-Admin': sessionStorage.getItem(TOKEN_KEY) || '1' };
          if (json) headers['Content-Type'] = 'application/json';
          return headers;
        }

        async function admin(method, path, body) {
          const init = { method, headers: adminHeaders(body !== undefined), cache: 'no-store' };
          if (body !== undefined) init.body = JSON.stringify(body);
          const response = await fetch('/admin/' + path, init);
          const text = await response.text();
          if (response.status === 401) { askToken(); throw new Error('the admin token is needed'); }
          if (!response.ok) {
            let message = text;
            try { message = JSON.parse(text).error || text; } catch (_) {}
            throw new Error(message || 'status ' + response.status);
          }
          return text ? JSON.parse(text) : null;
        }

        function say(message) { $('#status').textContent = message; }

        async function act(description, action, errorNode) {
          if (errorNode) errorNode.textContent = '';
          try {
            await action();
            say(description);
          } catch (error) {
            if (errorNode) errorNode.textContent = error.message; else say(error.message);
          }
        }

        function askToken() {
          const dialog = $('#token-dialog');
          if (!dialog.open) dialog.showModal();
          return new Promise(resolve => tokenWaiters.push(resolve));
        }

        $('#token-form').addEventListener('submit', event => {
          event.preventDefault();
          sessionStorage.setItem(TOKEN_KEY, event.target.token.value.trim());
          $('#token-dialog').close();
          const waiters = tokenWaiters; tokenWaiters = [];
          waiters.forEach(resolve => resolve());
        });

        // Values typed by a person, read by the config's type; a bad one throws with the reason.
        function parseValue(type, text) {
          const trimmed = text.trim();
          switch (type) {
            case 'boolean':
              if (trimmed === 'true') return true;
              if (trimmed === 'false') return false;
              throw new Error('a boolean is true or false, not "' + text + '"');
            case 'integer': {
              const number = Number(trimmed);
              if (!/^[+-]?\d+$/.test(trimmed) || !Number.isSafeInteger(number)) {
                throw new Error('"' + text + '" is not an integer');
              }
              return number;
            }
            case 'float':
              if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) {
                throw new Error('"' + text + '" is not a number');
              }
              return Number(trimmed);
            case 'json':
              try { return JSON.parse(text); } catch (error) { throw new Error('Invalid JSON: ' + error.message); }
            case 'url':
              try { new URL(trimmed); } catch (_) { throw new Error('"' + text + '" is not an absolute URL'); }
              return trimmed;
            default:
              return text;
          }
        }

        function valueText(type, value) {
          if (value === null || value === undefined) return '';
          if (type === 'json') return JSON.stringify(value, null, 2);
          return typeof value === 'string' ? value : JSON.stringify(value);
        }

        function describeRule(rule) {
          const parts = [];
          if (rule.id !== undefined) parts.push((rule.kind || 'user') + ' id = ' + rule.id);
          else if (rule.kind !== undefined) parts.push('kind = ' + rule.kind);
          if (rule.trait !== undefined) parts.push('trait ' + rule.trait + ' = ' + JSON.stringify(rule.equals ?? null));
          return 'when ' + parts.join(' and ') + ' → ' + (rule.value === null ? 'no value' : JSON.stringify(rule.value));
        }

        function saveConfig(config, description) {
          return act(description, () => admin('POST', 'configs', config));
        }

        function valueEditor(config, id) {
          const key = config.key;
          const path = 'configs/' + encodeURIComponent(key) + '/value';
          if (config.type === 'boolean') {
            return el('label', { class: 'switch' },
              el('input', { type: 'checkbox', role: 'switch', id, checked: config.value === true,
                'data-role': 'value',
                onchange: event => act(key + ' set to ' + event.target.checked,
                  () => admin('PUT', path, event.target.checked)) }),
              el('span', { text: 'Default value: ' + (config.value === null ? 'no value' : String(config.value)) }));
          }
          const error = el('p', { class: 'error', role: 'alert' });
          const field = config.type === 'json'
            ? el('textarea', { id, 'data-role': 'value', spellcheck: 'false', 'aria-label': 'Default value of ' + key })
            : el('input', { id, type: 'text', 'data-role': 'value', autocomplete: 'off',
                inputmode: config.type === 'integer' ? 'numeric' : config.type === 'float' ? 'decimal' : undefined,
                'aria-label': 'Default value of ' + key, placeholder: 'empty: no value' });
          field.value = valueText(config.type, config.value);
          const form = el('form', { class: 'value-form', novalidate: true }, field,
            el('button', { type: 'submit', text: 'Save' }), error);
          form.addEventListener('submit', event => {
            event.preventDefault();
            error.textContent = '';
            let value;
            try {
              value = field.value.trim() === '' && config.type !== 'string' ? null : parseValue(config.type, field.value);
            } catch (problem) { error.textContent = problem.message; return; }
            act(key + ' saved', () => admin('PUT', path, value), error);
          });
          return form;
        }

        function ruleForm(config) {
          const error = el('p', { class: 'error', role: 'alert' });
          const form = el('form', { novalidate: true, 'data-role': 'add-rule' },
            el('label', {}, 'Context kind', el('input', { name: 'kind', placeholder: 'user', autocomplete: 'off' })),
            el('label', {}, 'Context id', el('input', { name: 'id', autocomplete: 'off' })),
            el('label', {}, 'Trait', el('input', { name: 'trait', autocomplete: 'off' })),
            el('label', {}, 'Trait equals (JSON)', el('input', { name: 'equals', autocomplete: 'off', placeholder: '"pro"' })),
            el('label', {}, 'Value', el('input', { name: 'value', autocomplete: 'off' })),
            el('button', { type: 'submit', text: 'Add rule' }), error);
          form.addEventListener('submit', event => {
            event.preventDefault();
            error.textContent = '';
            const fields = form.elements;
            const rule = {};
            try {
              for (const name of ['kind', 'id', 'trait']) if (fields[name].value.trim()) rule[name] = fields[name].value.trim();
              if (!rule.kind && !rule.id && !rule.trait) throw new Error('a rule needs a kind, an id or a trait');
              if (rule.trait) {
                try { rule.equals = JSON.parse(fields.equals.value || 'null'); }
                catch (problem) { throw new Error('Invalid JSON for the trait: ' + problem.message); }
              }
              rule.value = fields.value.value.trim() === '' ? null : parseValue(config.type, fields.value.value);
            } catch (problem) { error.textContent = problem.message; return; }
            const updated = Object.assign({}, config, { rules: (config.rules || []).concat([rule]) });
            act('rule added to ' + config.key, () => admin('POST', 'configs', updated), error);
          });
          return el('details', {}, el('summary', { text: 'Add a rule' }), form);
        }

        function configArticle(config, index) {
          const id = 'value-' + index;
          const rules = el('ol', { class: 'rules' });
          (config.rules || []).forEach((rule, position) => {
            rules.append(el('li', {}, describeRule(rule), el('button', { type: 'button', class: 'secondary',
              'aria-label': 'Remove rule ' + (position + 1) + ' of ' + config.key, text: 'Remove',
              onclick: () => {
                const remaining = config.rules.filter((_, other) => other !== position);
                saveConfig(Object.assign({}, config, { rules: remaining }), 'rule removed from ' + config.key);
              } })));
          });
          return el('article', { class: 'config', 'data-key': config.key },
            el('header', {},
              el('h3', {}, el('label', { for: id, text: config.key })),
              el('span', { class: 'type', text: config.type }),
              el('button', { type: 'button', class: 'remove', 'aria-label': 'Remove ' + config.key, text: 'Remove',
                onclick: () => act(config.key + ' removed',
                  () => admin('DELETE', 'configs/' + encodeURIComponent(config.key))) })),
            valueEditor(config, id),
            (config.rules || []).length ? rules : null,
            ruleForm(config));
        }

        function renderConfigs(configs) {
          const list = $('#configs');
          const keys = new Set(configs.map(config => config.key));
          for (const [key, entry] of shown) if (!keys.has(key)) { entry.node.remove(); shown.delete(key); }
          configs.forEach((config, index) => {
            const text = JSON.stringify(config);
            let entry = shown.get(config.key);
            if (!entry || entry.text !== text) {
              const node = configArticle(config, index + '-' + Date.now());
              if (entry) entry.node.replaceWith(node);
              entry = { node, text };
              shown.set(config.key, entry);
            }
            if (list.children[index] !== entry.node) list.insertBefore(entry.node, list.children[index] || null);
          });
          $('#config-count').textContent = '(' + configs.length + ')';
          $('#empty').hidden = configs.length > 0;
        }

        function time(text) {
          const date = new Date(text);
          return isNaN(date) ? text : date.toLocaleTimeString();
        }

        function renderStreams(streams) {
          const body = $('#streams tbody');
          body.replaceChildren(...streams.map(stream => el('tr', { 'data-stream': stream.id },
            el('td', { text: String(stream.id) }),
            el('td', { text: stream.context.kind || 'user' }),
            el('td', {}, el('code', { text: stream.context.id ?? '(none)' })),
            el('td', {}, el('code', { text: JSON.stringify(stream.context.traits || {}) })),
            el('td', { text: time(stream.openedAt) }),
            el('td', {}, el('code', { text: stream.lastEventID || '–' })))));
          if (!streams.length) body.append(el('tr', {}, el('td', { colspan: 6, text: 'No open stream.' })));
          $('#stream-count').textContent = '(' + streams.length + ')';
          $('#no-app').hidden = streams.length > 0;
        }

        function renderTelemetry(summary) {
          $('#batch-count').textContent = '(' + summary.batches + (summary.batches === 1 ? ' batch)' : ' batches)');
          $('#sdks').replaceChildren(...summary.sdks.map(sdk => el('li', {},
            el('code', { text: sdk.name + ' ' + sdk.version }),
            ' sent ' + sdk.batches + (sdk.batches === 1 ? ' batch' : ' batches') + ', the last at ' + time(sdk.lastReceivedAt))));
          if (!summary.sdks.length) $('#sdks').append(el('li', { text: 'No telemetry received yet (clients send it about 5 s after they start, then every 30 s).' }));
          $('#evaluations tbody').replaceChildren(...summary.evaluations.map(row => el('tr', {},
            el('td', {}, el('code', { text: row.key })), el('td', { text: row.reason }),
            el('td', { text: String(row.count) }))));
        }

        function render(state) {
          latest = state;
          $('#base-url').textContent = location.origin;
          $('#sdk-key').textContent = state.health.sdkKey;
          $('#last-event').textContent = state.health.lastEventId;
          $('#snippet').textContent = 'let client = try ConfigDirectorClient(\n' +
            '    clientSDKKey: "' + state.health.sdkKey + '",\n' +
            '    options: ConfigDirectorClientOptions(\n' +
            '        connection: ConnectionOptions(baseURL: URL(string: "' + location.origin + '"))\n    )\n)';
          renderConfigs(state.configs.configs);
          renderStreams(state.streams);
          renderTelemetry(state.telemetry);
        }

        function setLive(on, why) {
          const live = $('#live');
          live.className = 'live ' + (on ? 'on' : 'off');
          live.textContent = on ? 'Live' : 'Reconnecting…' + (why ? ' (' + why + ')' : '');
        }

        async function follow() {
          for (;;) {
            let why = '';
            try {
              const response = await fetch('/admin/events', { headers: adminHeaders(false), cache: 'no-store' });
              if (response.status === 401) { setLive(false, 'the admin token is needed'); await askToken(); continue; }
              if (!response.ok) throw new Error('status ' + response.status);
              setLive(true);
              const reader = response.body.getReader();
              const decoder = new TextDecoder();
              let buffer = '';
              for (;;) {
                const { value, done } = await reader.read();
                if (done) break;
                buffer += decoder.decode(value, { stream: true });
                let end;
                while ((end = buffer.indexOf('\n\n')) >= 0) {
                  const block = buffer.slice(0, end);
                  buffer = buffer.slice(end + 2);
                  const data = block.split('\n').filter(line => line.startsWith('data: '))
                    .map(line => line.slice(6)).join('\n');
                  if (data) render(JSON.parse(data));
                }
              }
            } catch (error) { why = error.message; }
            setLive(false, why);
            await new Promise(resolve => setTimeout(resolve, 1000));
          }
        }

        function fault(description, body, errorNode) {
          return act(description, () => admin('POST', 'faults', body), errorNode);
        }

        $('#drop-streams').addEventListener('click', () => fault('every stream dropped', { type: 'dropStreams' }));
        $('#malformed-event').addEventListener('click', () => fault('a malformed event sent', { type: 'malformedEvent' }));
        $('#clear-faults').addEventListener('click', () => act('pending faults forgotten', () => admin('DELETE', 'faults')));
        $('#clear-records').addEventListener('click', () => act('requests and telemetry forgotten', () => admin('DELETE', 'telemetry')));

        $('#status-fault').addEventListener('submit', event => {
          event.preventDefault();
          const form = event.target, error = $('.error', form);
          try {
            const body = { type: 'status', path: form.path.value, status: parseValue('integer', form.status.value),
              count: parseValue('integer', form.count.value) };
            if (form.retryAfter.value.trim()) body.retryAfter = form.retryAfter.value.trim();
            fault('the next ' + body.count + ' requests to ' + body.path + ' get ' + body.status, body, error);
          } catch (problem) { error.textContent = problem.message; }
        });

        $('#stall-fault').addEventListener('submit', event => {
          event.preventDefault();
          const form = event.target, error = $('.error', form);
          try {
            const body = { type: 'stall', seconds: parseValue('float', form.seconds.value) };
            if (form.path.value) body.path = form.path.value;
            fault('the next response stalls ' + body.seconds + ' s', body, error);
          } catch (problem) { error.textContent = problem.message; }
        });

        $('#add-config').addEventListener('submit', event => {
          event.preventDefault();
          const form = event.target, error = $('.error', form);
          error.textContent = '';
          const key = form.key.value.trim(), type = form.type.value;
          let value;
          try {
            if (!key) throw new Error('a config needs a key');
            if (latest && latest.configs.configs.some(config => config.key === key)) throw new Error(key + ' exists already');
            value = form.value.value.trim() === '' ? null : parseValue(type, form.value.value);
          } catch (problem) { error.textContent = problem.message; return; }
          act(key + ' added', async () => { await admin('POST', 'configs', { key, type, value }); form.reset(); }, error);
        });

        $('#base-url').textContent = location.origin;
        follow();
        """#
}
