// The web view: a host, its namespace, and live charts, all through
// pmproxy's /pmapi/* (api.js). Each chart and series records what was
// drawn in data attributes (data-metric, data-instance, data-plotted), so
// that tests and people can read it from the DOM.
"use strict";

(function () {
  var $ = function (id) { return document.getElementById(id); };
  var numericTypes = { "32": 1, "u32": 1, "64": 1, "u64": 1, "float": 1, "double": 1 };
  var maxCharts = 24;          // charts on the page at once
  var maxSeries = 256;         // instances kept per chart; others ignored
  var seriesOn = 8;            // instances drawn at first; the legend picks others
  var maxPoints = 1200;        // points kept per series
  var maxResults = 100;        // search results listed
  var windowSeconds = 300;     // x axis span

  var state = {
    client: null,
    interval: 1,
    generation: 0,             // bumped on every reconnect, ending older loops
    charts: [],
    fetches: 0,
    searchSeq: 0,
    sticky: false,             // the status line holds an action's error
    pollTimeout: null          // seconds pmproxy keeps a context; null: from the interval
  };

  // setStatus shows a message; an error about something asked for (a
  // chart, a search, the namespace, a host) stays until the person does
  // something else (user), rather than being replaced by the next fetch's
  // news.
  function setStatus(message, error, sticky) {
    state.sticky = !!(error && sticky);
    var el = $("status");
    el.textContent = message;
    el.className = "status " + (error ? "error" : "ok");
    el.setAttribute("data-state", error ? "error" : "ok");
    if (state.client) {
      el.setAttribute("data-renewed", String(state.client.renewed));
    }
  }

  // user marks a person's action: the error of an earlier one may go.
  function user() {
    state.sticky = false;
  }

  function describe(e) {
    return e && e.message ? e.message : String(e);
  }

  function params() {
    var q = new URLSearchParams(location.search);
    var metrics = [];
    // "hostspec" and "metrics" are taken too, as /pmapi/* spells them.
    q.getAll("metric").concat(q.getAll("metrics")).forEach(function (m) {
      m.split(",").forEach(function (n) {
        n = n.trim();
        if (n && metrics.indexOf(n) < 0) {
          metrics.push(n);
        }
      });
    });
    var iv = Number(q.get("interval"));
    var pt = Number(q.get("polltimeout"));
    return {
      pollTimeout: pt > 0 && pt <= 3600 ? pt : null,
      search: q.get("search") || "",
      host: q.get("host") || q.get("hostspec") || "",
      interval: iv > 0 && iv <= 3600 ? iv : 1,
      metrics: metrics
    };
  }

  function remember() {
    var q = new URLSearchParams();
    if (state.client && state.client.hostspec !== "localhost") {
      q.set("host", state.client.hostspec);
    }
    if (state.interval !== 1) {
      q.set("interval", String(state.interval));
    }
    if (state.pollTimeout !== null) {
      q.set("polltimeout", String(state.pollTimeout));
    }
    if (state.charts.length) {
      q.set("metric", state.charts.map(function (c) { return c.name; }).join(","));
    }
    var s = q.toString();
    history.replaceState(null, "", location.pathname + (s ? "?" + s.replace(/%2C/g, ",") : ""));
  }

  // connect starts over with a host: a new client and context, the
  // namespace from its root, and the same charts with fresh data.
  function connect(hostspec, interval, metrics) {
    state.generation++;
    state.interval = interval;
    state.client = new pcpview.Client(hostspec || "localhost", state.pollTimeout || Math.max(30, 5 * interval));
    $("host").value = hostspec;
    selectInterval(interval);
    $("source").textContent = "";
    state.charts.slice().forEach(removeChart);
    $("results").textContent = "";
    var gen = state.generation;
    setStatus("connecting to " + state.client.hostspec + " …", false);
    state.client.connect().then(function () {
      if (gen !== state.generation) {
        return;
      }
      var src = state.client.source;
      var name = src.labels && src.labels.hostname ? src.labels.hostname : src.hostspec;
      $("source").textContent = name + " · source " + String(src.source).slice(0, 12);
      $("source").title = "source " + src.source;
      setStatus("connected to " + state.client.hostspec, false);
    }).catch(function (e) {
      if (gen === state.generation) {
        setStatus(state.client.hostspec + ": " + describe(e), true, true);
      }
    });
    loadTree($("tree"), "");
    // One after another, so that the charts keep the order asked for.
    metrics.reduce(function (done, m) {
      return done.then(function () { return addChart(m); });
    }, Promise.resolve());
    remember();
    schedule(gen, 0);
  }

  function selectInterval(iv) {
    var sel = $("interval");
    var found = Array.prototype.some.call(sel.options, function (o) { return Number(o.value) === iv; });
    if (!found) {
      var o = document.createElement("option");
      o.value = String(iv);
      o.textContent = iv + " s";
      sel.appendChild(o);
    }
    sel.value = String(iv);
  }

  // ---- namespace ----

  function loadTree(ul, prefix) {
    var gen = state.generation;
    var p = prefix ? { prefix: prefix } : {};
    ul.textContent = "";
    return state.client.call("children", p).then(function (body) {
      if (gen !== state.generation) {
        return;
      }
      (body.nonleaf || []).slice().sort().forEach(function (n) {
        ul.appendChild(treeNode(prefix ? prefix + "." + n : n, n, false));
      });
      (body.leaf || []).slice().sort().forEach(function (n) {
        ul.appendChild(treeNode(prefix ? prefix + "." + n : n, n, true));
      });
    }).catch(function (e) {
      if (gen === state.generation) {
        setStatus("namespace " + (prefix || "root") + ": " + describe(e), true, true);
      }
    });
  }

  function treeNode(full, label, leaf) {
    var li = document.createElement("li");
    li.className = leaf ? "leaf" : "nonleaf";
    li.setAttribute("data-name", full);
    var span = document.createElement("span");
    span.textContent = label;
    span.title = full;
    li.appendChild(span);
    span.addEventListener("click", function () {
      user();
      if (leaf) {
        addChart(full);
        return;
      }
      var sub = li.querySelector("ul");
      if (sub) {
        li.removeChild(sub);
        li.classList.remove("open");
        return;
      }
      sub = document.createElement("ul");
      li.appendChild(sub);
      li.classList.add("open");
      loadTree(sub, full);
    });
    return li;
  }

  // search lists the metrics whose names start with the text: the
  // metrics under the text (or under its part before the last dot) from
  // /pmapi/metric?prefix=, or for a first component the namespace's root.
  function search(text) {
    var seq = ++state.searchSeq;
    var ul = $("results");
    text = text.trim();
    if (!text) {
      ul.textContent = "";
      return;
    }
    var stem = text.replace(/\.$/, "");
    var dot = stem.lastIndexOf(".");
    var attempt = function (prefix) {
      if (!prefix) {
        return state.client.call("children", {}).then(function (body) {
          return (body.nonleaf || []).map(function (n) { return { name: n, nonleaf: true }; })
            .concat((body.leaf || []).map(function (n) { return { name: n }; }));
        });
      }
      return state.client.call("metric", { prefix: prefix }).then(function (body) {
        return (body.metrics || []).map(function (m) { return { name: m.name, desc: m }; });
      });
    };
    attempt(stem).catch(function () {
      return attempt(dot > 0 ? stem.slice(0, dot) : "");
    }).then(function (found) {
      if (seq !== state.searchSeq) {
        return;
      }
      var names = found.filter(function (f) { return f.name.indexOf(text) === 0 || f.name === stem; });
      names.sort(function (a, b) { return a.name < b.name ? -1 : a.name > b.name ? 1 : 0; });
      ul.textContent = "";
      names.slice(0, maxResults).forEach(function (f) {
        var li = document.createElement("li");
        li.className = f.nonleaf ? "nonleaf" : "leaf";
        li.setAttribute("data-name", f.name);
        var span = document.createElement("span");
        span.textContent = f.name;
        if (f.desc && f.desc["text-oneline"]) {
          span.title = f.desc["text-oneline"];
        }
        li.appendChild(span);
        span.addEventListener("click", function () {
          user();
          if (f.nonleaf) {
            $("search").value = f.name + ".";
            search(f.name + ".");
          } else {
            addChart(f.name, f.desc);
          }
        });
        ul.appendChild(li);
      });
      if (names.length > maxResults) {
        var more = document.createElement("li");
        more.className = "more";
        more.textContent = (names.length - maxResults) + " more: type more of the name";
        ul.appendChild(more);
      }
      if (names.length === 0) {
        var none = document.createElement("li");
        none.className = "more";
        none.textContent = "no metric starts with " + text;
        ul.appendChild(none);
      }
    }).catch(function (e) {
      if (seq === state.searchSeq) {
        setStatus("search " + text + ": " + describe(e), true, true);
      }
    });
  }

  // ---- charts ----

  function addChart(name, desc) {
    if (state.charts.some(function (c) { return c.name === name; })) {
      return Promise.resolve();
    }
    if (state.charts.length >= maxCharts) {
      setStatus("at most " + maxCharts + " charts at once: remove one first", true, true);
      return Promise.resolve();
    }
    var gen = state.generation;
    var got = desc ? Promise.resolve(desc) : state.client.call("metric", { names: name }).then(function (body) {
      var m = (body.metrics || []).filter(function (x) { return x.name === name; })[0];
      if (!m) {
        throw new pcpview.ApiError(name + ": no such metric", 0);
      }
      return m;
    });
    return got.then(function (m) {
      if (gen !== state.generation || state.charts.some(function (c) { return c.name === name; })) {
        return;
      }
      var c = makeChart(name, m);
      state.charts.push(c);
      $("empty").hidden = true;
      $("charts").appendChild(c.el);
      if (m.indom) {
        loadInstances(c);
      }
      draw(c);
      remember();
    }).catch(function (e) {
      if (gen === state.generation) {
        setStatus(name + ": " + describe(e), true, true);
      }
    });
  }

  function makeChart(name, m) {
    var counter = m.sem === "counter";
    var c = {
      name: name,
      desc: m,
      counter: counter,
      numeric: !!numericTypes[m.type],
      series: new Map(),
      instNames: new Map(),
      instLoading: false,
      instLoaded: 0,
      draws: 0,
      el: document.createElement("section")
    };
    c.el.className = "chart";
    c.el.setAttribute("data-metric", name);
    c.el.setAttribute("data-sem", m.sem || "");
    c.el.setAttribute("data-rate", counter ? "true" : "false");
    var h = document.createElement("h2");
    var title = document.createElement("span");
    title.textContent = name;
    var units = document.createElement("span");
    units.className = "units";
    units.textContent = pcpview.rateUnits(m.units, counter) + (counter ? " (rate)" : "");
    var close = document.createElement("button");
    close.type = "button";
    close.title = "remove this chart";
    close.textContent = "\u00d7";
    close.addEventListener("click", function () { user(); removeChart(c); remember(); });
    h.appendChild(title);
    h.appendChild(units);
    h.appendChild(close);
    var help = document.createElement("p");
    help.className = "help";
    help.textContent = m["text-oneline"] || "";
    c.errorEl = document.createElement("p");
    c.errorEl.className = "error";
    c.canvas = document.createElement("canvas");
    c.canvas.setAttribute("data-draws", "0");
    c.legend = document.createElement("ul");
    c.legend.className = "legend";
    c.el.appendChild(h);
    c.el.appendChild(help);
    c.el.appendChild(c.errorEl);
    if (c.numeric) {
      c.el.appendChild(c.canvas);
    } else {
      c.errorEl.textContent = "values of type " + m.type + " are listed, not plotted";
    }
    c.el.appendChild(c.legend);
    return c;
  }

  function removeChart(c) {
    var i = state.charts.indexOf(c);
    if (i >= 0) {
      state.charts.splice(i, 1);
    }
    if (c.el.parentNode) {
      c.el.parentNode.removeChild(c.el);
    }
    $("empty").hidden = state.charts.length > 0;
  }

  // loadInstances asks for the chart's instance names; an instance seen
  // in a fetch and not yet named asks again, at most every ten seconds.
  function loadInstances(c) {
    if (c.instLoading || Date.now() - c.instLoaded < 10000) {
      return;
    }
    c.instLoading = true;
    var gen = state.generation;
    state.client.call("indom", { name: c.name }).then(function (body) {
      (body.instances || []).forEach(function (i) {
        c.instNames.set(String(i.instance), i.name);
      });
      c.series.forEach(function (s) {
        if (c.instNames.has(s.key)) {
          s.name = c.instNames.get(s.key);
          s.label.textContent = s.name;
          s.li.setAttribute("data-instance", s.name);
        }
      });
    }).catch(function (e) {
      if (gen === state.generation) {
        c.errorEl.textContent = "instances: " + describe(e);
      }
    }).finally(function () {
      c.instLoading = false;
      c.instLoaded = Date.now();
    });
  }

  function seriesFor(c, key) {
    var s = c.series.get(key);
    if (s || c.series.size >= maxSeries) {
      return s || null;
    }
    var named = key === "null" ? "value" : c.instNames.get(key);
    s = {
      key: key,
      name: named || "#" + key,
      color: pcpview.palette[c.series.size % pcpview.palette.length],
      on: c.series.size < seriesOn,
      points: [],
      prev: null,
      li: document.createElement("li")
    };
    s.li.className = "series" + (s.on ? "" : " off");
    s.li.setAttribute("data-instance", s.name);
    s.li.setAttribute("data-inst", key);
    s.li.setAttribute("data-plotted", "0");
    s.li.setAttribute("data-points", "0");
    s.li.title = "click to show or hide";
    var sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = s.color;
    s.label = document.createElement("span");
    s.label.textContent = s.name;
    s.last = document.createElement("span");
    s.last.className = "last";
    s.li.appendChild(sw);
    s.li.appendChild(s.label);
    s.li.appendChild(s.last);
    s.li.addEventListener("click", function () {
      s.on = !s.on;
      s.li.classList.toggle("off", !s.on);
      draw(c);
    });
    c.series.set(key, s);
    c.legend.appendChild(s.li);
    if (!named && key !== "null") {
      loadInstances(c);
    }
    return s;
  }

  // apply adds one fetch's values to the charts.
  function apply(body) {
    var t = Number(body.timestamp);
    var byName = new Map();
    (body.values || []).forEach(function (vs) { byName.set(vs.name, vs); });
    state.charts.forEach(function (c) {
      var vs = byName.get(c.name);
      var seen = new Set();
      if (!vs) {
        c.errorEl.textContent = c.numeric ? "no values in the last fetch" : c.errorEl.textContent;
      } else {
        if (c.numeric) {
          c.errorEl.textContent = "";
        }
        (vs.instances || []).forEach(function (iv) {
          var key = iv.instance === null ? "null" : String(iv.instance);
          var s = seriesFor(c, key);
          if (!s) {
            return;
          }
          seen.add(key);
          if (!c.numeric) {
            s.last.textContent = String(iv.value);
            return;
          }
          var r = pcpview.rateStep(s.prev, t, iv.value, c.counter);
          s.prev = r.prev;
          if (r.prev === null || r.prev.t === t) {
            s.points.push({ t: t, y: r.y });
          }
          s.last.textContent = r.y === null ? "" : pcpview.formatValue(r.y);
        });
      }
      c.series.forEach(function (s) {
        if (!seen.has(s.key)) {
          // Gone from this fetch: a gap, and a counter starts afresh.
          s.prev = null;
          s.points.push({ t: t, y: null });
          s.last.textContent = "";
        }
        while (s.points.length > maxPoints || (s.points.length && s.points[0].t < t - windowSeconds)) {
          s.points.shift();
        }
        var kept = s.points.filter(function (p) { return p.y !== null; }).length;
        if (kept === 0 && !seen.has(s.key)) {
          // Gone for the whole window (a process that ended): its place
          // goes to instances still to come.
          c.series.delete(s.key);
          c.legend.removeChild(s.li);
          return;
        }
        s.li.setAttribute("data-points", String(kept));
      });
      draw(c);
    });
  }

  function draw(c) {
    if (!c.numeric) {
      return;
    }
    var series = Array.from(c.series.values());
    var plotted = pcpview.drawChart(c.canvas, series, windowSeconds);
    c.draws++;
    c.canvas.setAttribute("data-draws", String(c.draws));
    series.forEach(function (s) {
      s.li.setAttribute("data-plotted", String(plotted[s.key] || 0));
    });
  }

  // ---- the poll loop ----

  function schedule(gen, delay) {
    setTimeout(function () { tick(gen); }, delay);
  }

  function tick(gen) {
    if (gen !== state.generation) {
      return;
    }
    if (state.charts.length === 0) {
      schedule(gen, state.interval * 1000);
      return;
    }
    var names = state.charts.map(function (c) { return c.name; }).join(",");
    state.client.call("fetch", { names: names }).then(function (body) {
      if (gen !== state.generation) {
        return;
      }
      state.fetches++;
      document.body.setAttribute("data-fetches", String(state.fetches));
      apply(body);
      if (state.sticky) {
        $("status").setAttribute("data-renewed", String(state.client.renewed));
        return;
      }
      var stamp = new Date(Number(body.timestamp) * 1000).toLocaleTimeString([], { hour12: false });
      setStatus(state.client.hostspec + ": " + state.charts.length + " chart" +
        (state.charts.length === 1 ? "" : "s") + ", values of " + stamp +
        (state.client.renewed ? " (context made again " + state.client.renewed + "×)" : ""), false);
    }).catch(function (e) {
      if (gen === state.generation) {
        setStatus(state.client.hostspec + ": fetch: " + describe(e), true);
      }
    }).finally(function () {
      if (gen === state.generation) {
        schedule(gen, state.interval * 1000);
      }
    });
  }

  // ---- start ----

  $("host-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var names = state.charts.map(function (c) { return c.name; });
    connect($("host").value.trim(), Number($("interval").value) || 1, names);
  });
  $("interval").addEventListener("change", function () {
    state.interval = Number($("interval").value) || 1;
    remember();
  });
  var searchTimer = null;
  $("search").addEventListener("input", function () {
    user();
    clearTimeout(searchTimer);
    searchTimer = setTimeout(function () { search($("search").value); }, 250);
  });
  $("search-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    user();
    clearTimeout(searchTimer);
    search($("search").value);
  });
  window.addEventListener("resize", function () { state.charts.forEach(draw); });

  var p = params();
  state.pollTimeout = p.pollTimeout;
  connect(p.host, p.interval, p.metrics);
  if (p.search) {
    $("search").value = p.search;
    search(p.search);
  }
}());
