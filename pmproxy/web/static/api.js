// A client of pmproxy's REST API (/pmapi/*): one web context for one
// hostspec, made again when pmproxy says it has expired or is unknown.
"use strict";

var pcpview = window.pcpview || (window.pcpview = {});

// ApiError is a failed request: pmproxy's own message when it sent one
// ({"success":false,"message":...}), else the HTTP status or the
// network's error.
pcpview.ApiError = function (message, status) {
  this.name = "ApiError";
  this.message = message;
  this.status = status || 0;
};
pcpview.ApiError.prototype = Object.create(Error.prototype);

// requestTimeout bounds every request, so that a pmproxy or pmcd that does
// not answer shows as an error rather than a chart that stops.
pcpview.requestTimeout = 30000;

pcpview.query = function (params) {
  var parts = [];
  Object.keys(params || {}).forEach(function (k) {
    if (params[k] === undefined || params[k] === null) {
      return;
    }
    // Lists of names keep their commas, as pmproxy splits on them.
    parts.push(encodeURIComponent(k) + "=" + encodeURIComponent(String(params[k])).replace(/%2C/g, ","));
  });
  return parts.length ? "?" + parts.join("&") : "";
};

pcpview.request = async function (path, params) {
  var abort = new AbortController();
  var timer = setTimeout(function () { abort.abort(); }, pcpview.requestTimeout);
  var resp, text;
  try {
    resp = await fetch(path + pcpview.query(params), { signal: abort.signal, cache: "no-store" });
    text = await resp.text();
  } catch (e) {
    var why = e && e.name === "AbortError" ? "no answer in " + pcpview.requestTimeout / 1000 + " s" : String(e && e.message || e);
    throw new pcpview.ApiError("cannot reach pmproxy: " + why, 0);
  } finally {
    clearTimeout(timer);
  }
  var body = null;
  try {
    body = pcpview.parseJSON(text);
  } catch (e) {
    body = null;
  }
  if (body && body.success === false) {
    throw new pcpview.ApiError(String(body.message || "request failed"), resp.status);
  }
  if (!resp.ok || body === null) {
    throw new pcpview.ApiError(path + ": HTTP " + resp.status + " " + resp.statusText, resp.status);
  }
  return body;
};

// Client talks to one host through pmproxy. pollTimeout (seconds) is how
// long pmproxy keeps the context without a request.
pcpview.Client = function (hostspec, pollTimeout) {
  this.hostspec = hostspec;
  this.pollTimeout = pollTimeout;
  this.context = null;
  this.source = null;
  this.renewed = 0; // contexts made again after pmproxy lost one
  this.making = null;
};

// connect makes the web context, once for concurrent callers.
pcpview.Client.prototype.connect = function () {
  var self = this;
  if (self.context !== null) {
    return Promise.resolve(self.context);
  }
  if (self.making === null) {
    self.making = pcpview.request("/pmapi/context", {
      hostspec: self.hostspec, polltimeout: self.pollTimeout
    }).then(function (body) {
      self.context = body.context;
      self.source = body;
      return self.context;
    }).finally(function () {
      self.making = null;
    });
  }
  return self.making;
};

// call requests /pmapi/CONTEXT/cmd; when pmproxy no longer knows the
// context, it makes a new one and asks once more.
pcpview.Client.prototype.call = async function (cmd, params) {
  var ctx = await this.connect();
  try {
    return await pcpview.request("/pmapi/" + ctx + "/" + cmd, params);
  } catch (e) {
    if (!(e instanceof pcpview.ApiError) || !pcpview.contextLost(e.message)) {
      throw e;
    }
    if (this.context === ctx) {
      this.context = null;
      this.renewed++;
    }
    ctx = await this.connect();
    return await pcpview.request("/pmapi/" + ctx + "/" + cmd, params);
  }
};
