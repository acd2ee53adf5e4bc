'use strict';
// pmproxy's web view: everything comes from the REST API beside it.

const POLL_MS = 1000;
const KEEP = 120; // points kept per line
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b',
  '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

const state = { hostspec: 'localhost', ctx: null, charts: new Map(), timer: null, busy: false };

function $(id) { return document.getElementById(id); }

function setStatus(text, error) {
  const s = $('status');
  s.textContent = text;
  s.className = error ? 'error' : '';
}

// api calls /pmapi/<context>/<cmd>; a context pmproxy has expired or
// forgotten is made again once, as grafana-pcp does.
async function api(cmd, params, retried) {
  if (state.ctx === null) {
    await connect(state.hostspec);
  }
  const url = '/pmapi/' + state.ctx + '/' + cmd + '?' + new URLSearchParams(params);
  const resp = await fetch(url);
  const data = await resp.json().catch(() => ({ message: 'bad answer (' + resp.status + ')' }));
  if (!resp.ok) {
    const msg = data.message || ('HTTP ' + resp.status);
    if (!retried && /(unknown|expired) context identifier/.test(msg)) {
      state.ctx = null;
      return api(cmd, params, true);
    }
    throw new Error(msg);
  }
  return data;
}

async function connect(hostspec) {
  const resp = await fetch('/pmapi/context?' + new URLSearchParams({ hostspec, polltimeout: 30 }));
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok || data.context === undefined) {
    throw new Error(data.message || ('cannot connect to ' + hostspec));
  }
  state.hostspec = hostspec;
  state.ctx = data.context;
  setStatus('connected to ' + data.hostspec);
}

async function search(prefix) {
  const list = $('results');
  list.textContent = '';
  try {
    const data = await api('metric', { prefix });
    for (const m of data.metrics.slice(0, 500)) {
      if (m.success === false) continue;
      const li = document.createElement('li');
      li.textContent = m.name;
      li.dataset.metric = m.name;
      const help = document.createElement('div');
      help.className = 'help';
      help.textContent = m['text-oneline'] || '';
      li.appendChild(help);
      li.onclick = () => addChart(m.name);
      list.appendChild(li);
    }
    if (data.metrics.length === 0) list.textContent = 'no metrics';
  } catch (e) {
    list.textContent = e.message;
  }
}

async function addChart(name) {
  if (state.charts.has(name)) return;
  const meta = (await api('metric', { names: name })).metrics[0];
  if (!meta || meta.success === false) {
    setStatus(name + ': ' + (meta ? meta.message : 'unknown'), true);
    return;
  }
  const chart = {
    name, meta, counter: meta.sem === 'counter',
    numeric: !['string', 'aggregate', 'aggregate_static', 'event', 'highres_event'].includes(meta.type),
    lines: new Map(), // instance -> {label, colour, points, prev, shown}
    names: new Map(), samples: 0,
  };
  if (meta.indom) {
    try {
      const indom = await api('indom', { name });
      for (const i of indom.instances) chart.names.set(String(i.instance), i.name);
    } catch (e) { /* instances are named as they come */ }
  }
  const div = document.createElement('div');
  div.className = 'chart';
  div.dataset.metric = name;
  div.dataset.samples = '0';
  const h2 = document.createElement('h2');
  const title = document.createElement('span');
  title.textContent = name + ' ';
  const units = document.createElement('span');
  units.className = 'units';
  units.textContent = chart.counter ? '(' + meta.units + ' per second)' : '(' + meta.units + ')';
  title.appendChild(units);
  const close = document.createElement('button');
  close.textContent = 'remove';
  close.onclick = () => { state.charts.delete(name); div.remove(); };
  h2.append(title, close);
  const canvas = document.createElement('canvas');
  canvas.width = 540 * (window.devicePixelRatio || 1);
  canvas.height = 220 * (window.devicePixelRatio || 1);
  const legend = document.createElement('div');
  legend.className = 'legend';
  div.append(h2, canvas, legend);
  $('charts').appendChild(div);
  Object.assign(chart, { div, canvas, legend });
  state.charts.set(name, chart);
  poll();
}

function line(chart, inst) {
  let l = chart.lines.get(inst);
  if (!l) {
    const label = inst === 'null' ? chart.name : (chart.names.get(inst) || 'instance ' + inst);
    l = { label, colour: COLOURS[chart.lines.size % COLOURS.length], points: [], prev: null, shown: true };
    chart.lines.set(inst, l);
    const lab = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = true;
    box.onchange = () => { l.shown = box.checked; draw(chart); };
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = l.colour;
    lab.append(box, sw, document.createTextNode(label));
    chart.legend.appendChild(lab);
  }
  return l;
}

async function poll() {
  if (state.busy || state.charts.size === 0) return;
  state.busy = true;
  try {
    const data = await api('fetch', { names: [...state.charts.keys()].join(',') });
    const t = data.timestamp;
    for (const vs of data.values) {
      const chart = state.charts.get(vs.name);
      if (!chart) continue;
      for (const v of vs.instances) {
        const l = line(chart, String(v.instance));
        let y = v.value;
        if (!chart.numeric || typeof y !== 'number') {
          l.text = String(y);
          continue;
        }
        if (chart.counter) {
          const prev = l.prev;
          l.prev = { t, v: y };
          if (!prev || t <= prev.t || y < prev.v) continue; // first sample or a wrap
          y = (y - prev.v) / (t - prev.t);
        }
        l.points.push({ t, y });
        if (l.points.length > KEEP) l.points.shift();
      }
      chart.samples++;
      chart.div.dataset.samples = String(chart.samples);
      draw(chart);
    }
    setStatus('connected to ' + state.hostspec);
  } catch (e) {
    setStatus(e.message, true);
  } finally {
    state.busy = false;
  }
}

function fmt(y) {
  const a = Math.abs(y);
  if (a >= 1e9) return (y / 1e9).toFixed(1) + 'G';
  if (a >= 1e6) return (y / 1e6).toFixed(1) + 'M';
  if (a >= 1e3) return (y / 1e3).toFixed(1) + 'k';
  return a >= 10 ? y.toFixed(0) : y.toFixed(2);
}

function draw(chart) {
  const c = chart.canvas, g = c.getContext('2d');
  const r = window.devicePixelRatio || 1;
  g.setTransform(r, 0, 0, r, 0, 0);
  const W = c.width / r, H = c.height / r, L = 50, B = 20;
  g.clearRect(0, 0, W, H);
  const shown = [...chart.lines.values()].filter(l => l.shown && l.points.length > 0);
  let lo = Infinity, hi = -Infinity, t0 = Infinity, t1 = -Infinity;
  for (const l of shown) {
    for (const p of l.points) {
      lo = Math.min(lo, p.y); hi = Math.max(hi, p.y);
      t0 = Math.min(t0, p.t); t1 = Math.max(t1, p.t);
    }
  }
  g.strokeStyle = '#999';
  g.fillStyle = '#555';
  g.font = '11px sans-serif';
  g.beginPath(); g.moveTo(L, 0); g.lineTo(L, H - B); g.lineTo(W, H - B); g.stroke();
  if (shown.length === 0) {
    const text = [...chart.lines.values()].map(l => l.label + ': ' + (l.text || 'waiting')).join('  ');
    g.fillText(text || 'waiting for values', L + 10, H / 2);
    return;
  }
  if (lo === hi) { lo -= 1; hi += 1; }
  if (lo > 0 && lo < hi / 2) lo = 0;
  if (t0 === t1) t1 = t0 + 1;
  const x = t => L + (t - t0) / (t1 - t0) * (W - L - 5);
  const y = v => (H - B) - (v - lo) / (hi - lo) * (H - B - 10);
  for (let i = 0; i <= 4; i++) {
    const v = lo + (hi - lo) * i / 4;
    g.fillText(fmt(v), 2, y(v) + 4);
  }
  g.fillText(new Date(t1 * 1000).toLocaleTimeString(), W - 70, H - 5);
  for (const l of shown) {
    g.strokeStyle = l.colour;
    g.lineWidth = 1.5;
    g.beginPath();
    l.points.forEach((p, i) => (i ? g.lineTo(x(p.t), y(p.y)) : g.moveTo(x(p.t), y(p.y))));
    g.stroke();
  }
}

async function start() {
  const params = new URLSearchParams(location.search);
  if (params.get('hostspec')) $('hostspec').value = params.get('hostspec');
  $('hostform').onsubmit = async (ev) => {
    ev.preventDefault();
    try {
      for (const chart of state.charts.values()) chart.div.remove();
      state.charts.clear();
      await connect($('hostspec').value);
    } catch (e) { setStatus(e.message, true); }
  };
  $('searchform').onsubmit = (ev) => { ev.preventDefault(); search($('search').value); };
  try {
    await connect($('hostspec').value);
    for (const name of (params.get('metrics') || '').split(',').filter(Boolean)) {
      await addChart(name);
    }
    if (params.get('search')) { $('search').value = params.get('search'); await search(params.get('search')); }
  } catch (e) { setStatus(e.message, true); }
  state.timer = setInterval(poll, POLL_MS);
}

start();
