// The web view's computations, apart from the DOM and the network so that
// a test page (testdata/rate.html) can check them in a browser.
"use strict";

var pcpview = window.pcpview || (window.pcpview = {});

// parseJSON reads a pmproxy answer, where the browser gives JSON.parse's
// reviver the source text (chromium does), more exactly than JSON numbers
// allow:
//  - Integers beyond 2^53 (64-bit counters such as byte counts) lose their
//    low digits as JavaScript numbers; they are kept exact as BigInt, so
//    that the difference of two successive values is exact too.
//  - A fetch's "timestamp" is seconds, a dot, and nanoseconds; PCP 6.0.3's
//    pmproxy writes the nanoseconds without their leading zeros (5 ns past
//    a second as ".5"), so the digits after the dot are read as a count of
//    nanoseconds, which is right for that form and for nine digits alike.
pcpview.parseJSON = function (text) {
  return JSON.parse(text, function (key, value, ctx) {
    if (typeof value !== "number" || !ctx || typeof ctx.source !== "string") {
      return value;
    }
    if (key === "timestamp") {
      var m = /^([0-9]+)\.([0-9]{1,9})$/.exec(ctx.source);
      return m ? Number(m[1]) + Number(m[2]) / 1e9 : value;
    }
    if (!Number.isSafeInteger(value) && /^-?[0-9]+$/.test(ctx.source)) {
      return BigInt(ctx.source);
    }
    return value;
  });
};

// isNumeric says whether a fetched value can be plotted: strings, events
// and aggregates cannot.
pcpview.isNumeric = function (v) {
  return (typeof v === "number" && isFinite(v)) || typeof v === "bigint";
};

// rateStep turns one instance's successive samples into the value to plot.
// prev is the instance's previous sample ({t, v}: seconds and raw value) or
// null; t and v the new one. For a counter the answer is its rate per
// second over the two samples: none for the first sample, none when the
// timestamp has not moved on (the same sample fetched twice: the earlier
// one is kept), and none when the counter went down (a reset or a wrap,
// which PCP's tools also leave without a value unless told to assume a
// wrap). Anything else is plotted as it is. It returns {prev, y} with y
// null when there is nothing to plot.
pcpview.rateStep = function (prev, t, v, counter) {
  if (!pcpview.isNumeric(v) || typeof t !== "number" || !isFinite(t)) {
    return { prev: null, y: null };
  }
  var here = { t: t, v: v };
  if (!counter) {
    return { prev: here, y: Number(v) };
  }
  if (prev === null || prev === undefined) {
    return { prev: here, y: null };
  }
  var dt = t - prev.t;
  if (!(dt > 0)) {
    return { prev: prev, y: null };
  }
  var dv;
  if (typeof v === "bigint" || typeof prev.v === "bigint") {
    dv = Number(BigInt(v) - BigInt(prev.v));
  } else {
    dv = v - prev.v;
  }
  if (dv < 0) {
    return { prev: here, y: null };
  }
  return { prev: here, y: dv / dt };
};

// rateUnits is what a chart's axis says: a counter's units per second.
pcpview.rateUnits = function (units, counter) {
  var u = units && units !== "none" ? units : "";
  if (!counter) {
    return u;
  }
  return (u || "count") + " / s";
};

// niceScale picks an axis from lo to hi with about n steps of 1, 2, 2.5 or 5
// times a power of ten, covering [min, max]; a flat or empty range gets a
// unit-wide axis around its value.
pcpview.niceScale = function (min, max, n) {
  if (!isFinite(min) || !isFinite(max)) {
    min = 0;
    max = 1;
  }
  if (min > max) {
    var s = min;
    min = max;
    max = s;
  }
  if (min === max) {
    var pad = min === 0 ? 1 : Math.abs(min) / 2;
    min -= pad;
    max += pad;
  }
  if (min > 0 && min < (max - min)) {
    min = 0;
  }
  n = n > 0 ? n : 5;
  var raw = (max - min) / n;
  var mag = Math.pow(10, Math.floor(Math.log10(raw)));
  var step = mag;
  [1, 2, 2.5, 5, 10].some(function (m) {
    step = m * mag;
    return step >= raw;
  });
  var lo = Math.floor(min / step) * step;
  var hi = Math.ceil(max / step) * step;
  return { lo: lo, hi: hi, step: step };
};

// formatValue writes an axis label or a last value briefly: SI prefixes
// from k upwards, up to digits significant digits (four unless given).
pcpview.formatValue = function (y, digits) {
  if (y === null || y === undefined || !isFinite(y)) {
    return "";
  }
  digits = digits >= 1 && digits <= 15 ? Math.round(digits) : 4;
  var a = Math.abs(y);
  var prefixes = [[1e15, "P"], [1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"]];
  for (var i = 0; i < prefixes.length; i++) {
    if (a >= prefixes[i][0]) {
      return trim(y / prefixes[i][0]) + prefixes[i][1];
    }
  }
  return trim(y);

  function trim(x) {
    if (x === 0) {
      return "0";
    }
    var s = Math.abs(x) >= 1000 ? x.toFixed(0) : x.toPrecision(Math.max(digits, 3));
    if (s.indexOf("e") < 0 && s.indexOf(".") >= 0) {
      s = s.replace(/0+$/, "").replace(/\.$/, "");
    }
    return s;
  }
};

// tickDigits is how many significant digits tell an axis' labels apart:
// enough for the largest label to show a change of one step.
pcpview.tickDigits = function (lo, hi, step) {
  var big = Math.max(Math.abs(lo), Math.abs(hi));
  if (!(step > 0) || !(big > 0)) {
    return 3;
  }
  return Math.min(15, Math.max(3, Math.ceil(Math.log10(big / step)) + 1));
};

// formatTime writes a time axis label (t in seconds since the epoch) in
// local time, with as many decimals as a step of step seconds needs.
pcpview.formatTime = function (t, step) {
  var ms = Math.round(t * 1000);
  var d = new Date(ms);
  var two = function (n) { return (n < 10 ? "0" : "") + n; };
  var s = two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds());
  if (step < 1) {
    var digits = step < 0.1 ? 2 : 1;
    s += "." + String(((ms % 1000) + 1000) % 1000).padStart(3, "0").slice(0, digits);
  }
  return s;
};

// timeWindow is the span of the x axis: the last width seconds up to the
// newest sample, or from the oldest sample when there is less than that.
pcpview.timeWindow = function (oldest, newest, width) {
  if (!isFinite(oldest) || !isFinite(newest)) {
    return null;
  }
  var from = Math.max(oldest, newest - width);
  if (!(newest > from)) {
    from = newest - 1;
  }
  return { from: from, to: newest };
};

// contextLost says whether an error from pmproxy means the web context is
// gone (expired after its poll timeout, or never known to this pmproxy),
// so that a new one is to be made, as grafana-pcp does.
pcpview.contextLost = function (message) {
  return /(unknown|expired) context identifier/.test(String(message));
};
