// Runs the cases of /cases.json (rate_test.go's table) through the web
// view's functions and writes what they returned into #results as JSON.
// BigInt travels as {"bigint": "digits"} both ways.
"use strict";

function revive(x) {
  if (Array.isArray(x)) {
    return x.map(revive);
  }
  if (x && typeof x === "object") {
    var keys = Object.keys(x);
    if (keys.length === 1 && keys[0] === "bigint") {
      return BigInt(x.bigint);
    }
    var o = {};
    keys.forEach(function (k) { o[k] = revive(x[k]); });
    return o;
  }
  return x;
}

function plain(x) {
  if (typeof x === "bigint") {
    return { bigint: x.toString() };
  }
  if (x === undefined) {
    return null;
  }
  if (typeof x === "number" && !isFinite(x)) {
    return String(x);
  }
  if (Array.isArray(x)) {
    return x.map(plain);
  }
  if (x && typeof x === "object") {
    var o = {};
    Object.keys(x).forEach(function (k) { o[k] = plain(x[k]); });
    return o;
  }
  return x;
}

fetch("/cases.json").then(function (r) { return r.json(); }).then(function (cases) {
  var out = cases.map(function (c) {
    try {
      return { got: plain(pcpview[c.fn].apply(null, revive(c.args))) };
    } catch (e) {
      return { error: String(e) };
    }
  });
  document.getElementById("results").textContent = JSON.stringify(out);
}).catch(function (e) {
  document.getElementById("results").textContent = JSON.stringify([{ error: String(e) }]);
});
