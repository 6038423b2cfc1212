/* Taps not answered yet, shown where they were made (issue 33). The marks are drawn from the outbox
   (10-live.js keeps it in localStorage) every time it changes and every time a new live region
   settles, whatever brought it (an answer, a push, a poll), so a mark lasts exactly as long as its
   tap waits, across reloads and on the saved offline copy too.

   The phone never works out a game rule: a counter whose action the server declares a plain
   increment (`relative=True`, rendered as data-relative on its form) shows its pending sum ("+1
   waiting"); any other tap only marks its form as waiting. The answer replaces the mark with the
   server's value, or with the refusal and the entry kept. */
(function () {
  "use strict";

  var OUTBOX = "companion.outbox.v1";
  var PLAIN_HTTP_TOLD = "companion.plain-http-told.v1";

  function msg(key) {
    var tpl = document.getElementById("live-messages");
    var el = tpl && tpl.content ? tpl.content.querySelector('[data-msg="' + key + '"]') : null;
    return el ? el.textContent : "";
  }
  function tokenOf(url) {
    var m = /\/t\/([A-Za-z0-9_-]{24})(?:[/?#]|$)/.exec(url || "");
    return m ? m[1] : null;
  }
  function outbox() {
    try { return JSON.parse(localStorage.getItem(OUTBOX) || "[]") || []; } catch (err) { return []; }
  }
  function signed(n) { return n > 0 ? "+" + n : n < 0 ? "\u2212" + Math.abs(n) : "\u00b10"; }

  function clear() {
    var old = document.querySelectorAll("[data-pending-mark]");
    for (var i = 0; i < old.length; i++) old[i].remove();
    var forms = document.querySelectorAll("form.is-pending, .counter.is-pending");
    for (var j = 0; j < forms.length; j++) forms[j].classList.remove("is-pending");
  }

  function markOf(text) {
    var mark = document.createElement("span");
    mark.className = "pending-mark";
    mark.setAttribute("data-pending-mark", "");
    mark.textContent = text;
    return mark;
  }

  function draw(items) {
    var region = document.getElementById("live");
    if (!region) return;
    clear();
    var here = tokenOf(location.pathname);
    var byForm = {};
    (items || outbox()).forEach(function (item) {
      if (item.table !== here || !item.key) return;
      var entry = byForm[item.key] || (byForm[item.key] = { n: 0, sum: 0, counts: true });
      entry.n++;
      if (item.relative && typeof item.delta === "number") entry.sum += item.delta;
      else entry.counts = false;
    });
    Object.keys(byForm).forEach(function (key) {
      var form = document.getElementById(key);
      if (!form || form.tagName !== "FORM" || !region.contains(form)) return;
      var entry = byForm[key];
      var waiting = msg(entry.n > 1 ? "pending-taps" : "pending-tap").replace("{n}", String(entry.n));
      var counter = form.closest(".counter");
      if (counter) {
        // A declared increment shows its pending sum; the value beside it stays the server's.
        var label = counter.querySelector(".counter-label");
        var text = entry.counts && form.hasAttribute("data-relative")
          ? msg("pending-delta").replace("{delta}", signed(entry.sum)) : waiting;
        counter.classList.add("is-pending");
        if (label) label.appendChild(markOf(text)); else counter.insertBefore(markOf(text), form);
        return;
      }
      form.classList.add("is-pending");
      var button = form.querySelector("button:not([type=button])");
      // A tick keeps its row: the mark goes inside its button; any other form gets it at its end.
      if (button && form.classList.contains("tick-form")) button.appendChild(markOf(waiting));
      else form.appendChild(markOf(waiting));
    });
  }

  document.addEventListener("companion:outbox", function (e) { draw(e.detail && e.detail.items); });
  window.addEventListener("storage", function (e) { if (e.key === OUTBOX) draw(); });
  document.addEventListener("htmx:afterSettle", function (e) {
    var region = document.getElementById("live");
    if (region && e.target && (e.target === region || e.target.contains(region) || region.contains(e.target))) draw();
  });

  /* On a plain-http address (not localhost) no service worker can run: say once, on the first table
     page, what keeps working without network there and what does not. */
  function tellPlainHttp() {
    var box = document.querySelector("[data-plain-http]");
    if (!box || window.isSecureContext) return;
    var told = null;
    try { told = localStorage.getItem(PLAIN_HTTP_TOLD); } catch (err) { told = null; }
    if (told) return;
    box.hidden = false;
    try { localStorage.setItem(PLAIN_HTTP_TOLD, String(Date.now())); } catch (err) { /* private mode: shown each time */ }
    var ok = box.querySelector("button");
    if (ok) ok.addEventListener("click", function () { box.hidden = true; });
  }

  function start() { draw(); tellPlainHttp(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
