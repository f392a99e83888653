// The console page: the server's events (/console/events) drawn as they come. App data (names, titles, change
// lines) is written with textContent only, never as markup.

const $ = (id) => document.getElementById(id);
const timeline = $('timeline');
const questions = $('questions');
const filters = $('filters');
const status = $('status');

/** Calls shown, by id: their list item. */
const rows = new Map();
/** The pause written down for servers that start later (Date.now() ms; 0: none). */
let writtenPause = 0;
/** Servers watched, by pid: how they serve and until when they are paused. */
const servers = new Map();
/** The most calls drawn; older ones are dropped from the page. */
const ROWS_MAX = 500;
/** The calls that keep their pictures; older ones lose them (a page open for hours holds little). */
const PICTURED_MAX = 40;
let connected = false;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const clock = (iso) => new Date(iso).toLocaleTimeString();
const targetText = (t) => (t ? `${t.role}${t.name !== undefined ? ` "${t.name}"` : ''}` : '');

function addOption(select, value) {
  if (!value || [...select.options].some((o) => o.value === value)) return;
  select.append(new Option(value, value));
}

function matches(row) {
  const wanted = Object.fromEntries(new FormData(filters));
  return Object.entries(wanted).every(([key, value]) => !value || row.dataset[key] === value);
}

function applyFilters() {
  for (const row of rows.values()) row.hidden = !matches(row);
}

function picture(label, thumb) {
  const figure = el('figure');
  const img = el('img');
  img.src = `data:image/jpeg;base64,${thumb.data}`;
  img.width = thumb.width / 2;
  img.height = thumb.height / 2;
  img.alt = `The screen ${label} the action`;
  figure.append(img, el('figcaption', '', label));
  return figure;
}

function drawCall(event) {
  let row = rows.get(event.call);
  if (!row) {
    row = el('li', 'call');
    rows.set(event.call, row);
    timeline.prepend(row);
    while (rows.size > ROWS_MAX) {
      const [oldest, node] = rows.entries().next().value;
      node.remove();
      rows.delete(oldest);
    }
  }
  const outcome = event.type === 'started' ? 'running' : event.outcome;
  Object.assign(row.dataset, {
    session: event.session,
    app: event.app ?? '',
    tool: event.tool,
    outcome,
  });
  row.className = `call ${outcome}${event.write ? ' write' : ''}`;
  row.replaceChildren();
  const head = el('div', 'head');
  head.append(
    el('time', '', clock(event.time)),
    el('span', 'session', event.session),
    el('strong', 'tool', event.tool),
  );
  if (event.app) head.append(el('span', 'app data', event.app));
  if (event.target) head.append(el('span', 'target data', targetText(event.target)));
  head.append(el('span', 'outcome', outcome));
  if (event.duration_ms !== undefined) head.append(el('span', 'duration', `${event.duration_ms} ms`));
  if (event.error) head.append(el('span', 'error', event.error));
  row.append(head);
  if (event.changes?.length) {
    const list = el('ul', 'changes data');
    for (const line of event.changes) list.append(el('li', '', line));
    row.append(list);
  }
  drawPictures(row, event);
  for (const key of ['session', 'app', 'tool']) addOption(filters.elements[key], row.dataset[key]);
  row.hidden = !matches(row);
  for (const old of [...timeline.querySelectorAll('.pictures')].slice(PICTURED_MAX)) old.remove();
}

/** An action's screen before and after, on its row (they may come a moment after the call ended). */
function drawPictures(row, event) {
  if (!event.before && !event.after) return;
  row.querySelector('.pictures')?.remove();
  const pictures = el('div', 'pictures');
  if (event.before) pictures.append(picture('before', event.before));
  if (event.after) pictures.append(picture('after', event.after));
  row.append(pictures);
}

async function post(path, body = {}) {
  const response = await fetch(`/console/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(await response.text());
  return response.json();
}

function drawQuestion(event) {
  const card = el('article', 'question');
  card.id = `q-${event.id}`;
  card.append(
    el('h2', '', 'An agent asks for your consent'),
    el('p', 'action data', event.action),
    el('p', 'who', `${event.session} · ${event.tool}`),
  );
  if (event.detail) card.append(el('p', 'detail data', event.detail));
  card.append(
    el(
      'p',
      'undo',
      event.undoable
        ? 'The agent can take it back afterwards (its undo tool).'
        : 'The agent cannot take it back with its undo tool.',
    ),
  );
  const left = el('p', 'expires');
  const tick = () => {
    const seconds = Math.max(0, Math.round((event.expires - Date.now()) / 1000));
    left.textContent = `Denied in ${seconds} s if you do not answer.`;
  };
  tick();
  const timer = setInterval(tick, 1000);
  card.dataset.timer = String(timer);
  const buttons = el('div', 'answers');
  const refused = el('p', 'refused');
  for (const [answer, label] of [
    ['once', 'Allow once'],
    ['session', 'Allow for this session'],
    ['deny', 'Deny'],
  ]) {
    const button = el('button', answer, label);
    button.addEventListener('click', () => {
      for (const b of buttons.querySelectorAll('button')) b.disabled = true;
      refused.textContent = '';
      post('answer', { id: event.id, answer }).catch((error) => {
        // Not taken (an agent was acting, say): said, and the question can be answered again.
        refused.textContent = error.message;
        for (const b of buttons.querySelectorAll('button')) b.disabled = false;
      });
    });
    buttons.append(button);
  }
  card.append(left, buttons, refused);
  questions.append(card);
}

function closeQuestion(id) {
  const card = document.getElementById(`q-${id}`);
  if (!card) return;
  clearInterval(Number(card.dataset.timer));
  card.remove();
}

function drawStatus() {
  if (!connected) {
    status.textContent = 'Not connected to macpilot: reconnecting…';
    return;
  }
  const now = Date.now();
  const until = Math.max(writtenPause, ...[...servers.values()].map((s) => s.pausedUntil));
  const paused = until > now;
  const count = servers.size;
  const pause = `Actions paused until ${new Date(until).toLocaleTimeString()}`;
  status.textContent =
    count === 0
      ? `No macpilot server is running.${paused ? ` ${pause}: a server that starts before then starts paused.` : ''}`
      : `${count} macpilot server${count === 1 ? '' : 's'} watched. ${paused ? `${pause}.` : 'Agents may act.'}`;
  document.body.classList.toggle('paused', paused);
}

/** The area of the screen the live picture shows, in screen points. */
let screenArea;
let lastBounds;

/** Outlines where the last action acted, over the live picture. */
function outline(bounds) {
  lastBounds = bounds ?? lastBounds;
  const box = $('outline');
  const img = $('screen');
  if (!lastBounds || !screenArea || !img.clientWidth) return;
  const scale = img.clientWidth / screenArea.width;
  const pad = 4;
  Object.assign(box.style, {
    left: `${(lastBounds.x - screenArea.x) * scale - pad}px`,
    top: `${(lastBounds.y - screenArea.y) * scale - pad}px`,
    width: `${lastBounds.width * scale + 2 * pad}px`,
    height: `${lastBounds.height * scale + 2 * pad}px`,
  });
  box.hidden = false;
}

/** A step as the person reads it: its tool and its arguments, typed text and keys as their lengths. */
function stepText(step) {
  const args = Object.entries(step.args).map(([name, value]) =>
    name.endsWith('_length')
      ? `${name.slice(0, -7)}: ${value} characters`
      : `${name}: ${JSON.stringify(value)}`,
  );
  return `${step.tool}${args.length > 0 ? ` (${args.join(', ')})` : ''}`;
}

/** Recordings running, by server: the section shows the latest. */
const recordings = new Map();

function drawRecording(event) {
  if (event.running) recordings.set(event.pid, event);
  else recordings.delete(event.pid);
  const shown = [...recordings.values()].at(-1);
  $('recording').hidden = !shown;
  if (!shown) return;
  $('recording-app').textContent = shown.app ? `of ${shown.app}` : 'of every app';
  $('recording-steps').replaceChildren(...shown.steps.map((step) => el('li', 'data', stepText(step))));
}

function drawProgress(event) {
  const row = rows.get(event.call);
  if (!row) return;
  let line = row.querySelector('.progress');
  if (!line) {
    line = el('p', 'progress');
    row.append(line);
  }
  const of = event.total === undefined ? '' : ` of ${event.total}`;
  line.textContent = `${event.done}${of}${event.message ? `: ${event.message}` : ''}`;
}

function handle(event) {
  switch (event.type) {
    case 'recording':
      drawRecording(event);
      break;
    case 'pictured':
      if (rows.has(event.call)) drawPictures(rows.get(event.call), event);
      break;
    case 'progress':
      drawProgress(event);
      break;
    case 'server':
      if (event.up) servers.set(event.pid, { serving: event.serving, pausedUntil: 0 });
      else servers.delete(event.pid);
      drawStatus();
      break;
    case 'desk':
      if (servers.has(event.pid)) servers.get(event.pid).pausedUntil = event.pausedUntil;
      drawStatus();
      break;
    case 'pause':
      writtenPause = event.until;
      drawStatus();
      break;
    case 'started':
    case 'ended':
      drawCall(event);
      if (event.type === 'ended' && event.bounds) outline(event.bounds);
      break;
    case 'consent':
      if (!document.getElementById(`q-${event.id}`)) drawQuestion(event);
      break;
    case 'answered':
      closeQuestion(event.id);
      break;
    case 'screen':
      screenArea = event.area;
      $('screen').src = `/console/screen?v=${event.version}`;
      break;
  }
}

function connect() {
  const source = new EventSource('/console/events');
  source.onopen = () => {
    connected = true;
    drawStatus();
  };
  source.onmessage = (message) => {
    try {
      handle(JSON.parse(message.data));
    } catch {
      // A message the page cannot read is skipped.
    }
  };
  source.onerror = () => {
    connected = false;
    drawStatus();
  };
}

async function stop() {
  const report = await post('stop');
  status.textContent = `Stopped: ${report.cancelled} call${report.cancelled === 1 ? '' : 's'} cancelled in ${report.servers} server${report.servers === 1 ? '' : 's'}.`;
}

$('screen').addEventListener('load', () => outline());
$('stop').addEventListener('click', () => void stop());
$('resume').addEventListener('click', () => void post('resume'));
filters.addEventListener('change', applyFilters);
document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
  if (e.key === 'Escape') void stop();
  else if (e.key === 'r' || e.key === 'R') void post('resume');
});
setInterval(drawStatus, 5000);
connect();
