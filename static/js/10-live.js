/* The live table (issue 26): every tap gets its own id and goes through an outbox kept on this
   phone, so no tap is lost without network and none counts twice; other phones' changes arrive by
   push (Server-Sent Events) with polling as the fallback; an update never throws away what this
   phone is typing. Without JavaScript the forms post as plain forms and nothing here runs. */
(function () {
  "use strict";

  var OUTBOX = "companion.outbox.v1";
  var HEARTBEAT_MS = 15000;

  function live() { return document.getElementById("live"); }
  function poller() { return document.querySelector("[data-live-poll]"); }
  function shownVersion() {
    var region = live();
    return region ? parseInt(region.getAttribute("data-version"), 10) : NaN;
  }
  function tokenOf(url) {
    var m = /\/t\/([A-Za-z0-9_-]{24})(?:[/?#]|$)/.exec(url || "");
    return m ? m[1] : null;
  }
  var here = tokenOf(location.pathname);
  var offlineCopy = document.documentElement.hasAttribute("data-offline-copy");

  function msg(key) {
    var tpl = document.getElementById("live-messages");
    var el = tpl && tpl.content ? tpl.content.querySelector('[data-msg="' + key + '"]') : null;
    return el ? el.textContent : "";
  }
  function plural(n) {
    var one = document.documentElement.lang === "fr" ? n <= 1 : n === 1;
    return msg(one ? "pending-one" : "pending-other").replace("{n}", String(n));
  }

  /* The status line above the table (never over a button): unsent taps, errors, held updates. */
  var statusTimer = null;
  function status(text, kind, actionLabel, action) {
    var box = document.querySelector("[data-live-status]");
    if (!box) return;
    clearTimeout(statusTimer);
    box.className = "live-status" + (kind ? " live-status-" + kind : "");
    window.companionNotice(box, text, actionLabel, action, "button secondary");
  }

  /* -- the outbox: every table tap, with its own id, in order, until the server answers ---------- */

  var memory = [];
  function load() {
    try { return JSON.parse(localStorage.getItem(OUTBOX) || "[]") || []; } catch (err) { return memory; }
  }
  function save(items) {
    try { localStorage.setItem(OUTBOX, JSON.stringify(items)); } catch (err) { memory = items; }
  }
  function tapId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    var out = "tap-";
    for (var i = 0; i < bytes.length; i++) out += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
    return out;
  }
  function mine() { return load().filter(function (item) { return item.table === here; }); }

  var sending = false, offline = false, failures = 0, retryTimer = null, showedPending = false, slowTimer = null;

  function showPending() {
    var n = mine().length;
    if (n && (offline || showedPending || (sending && Date.now() - (mine()[0].at || 0) > 900))) {
      showedPending = true;
      status(plural(n), "pending");
    } else if (!n && showedPending) {
      showedPending = false;
      status(msg("sent"), "sent");
      statusTimer = setTimeout(function () { status(""); }, 4000);
    }
  }

  function enqueue(item) {
    var items = load();
    items.push(item);
    save(items);
    pump();
  }

  function drop(id) { save(load().filter(function (item) { return item.id !== id; })); }

  function retryLater(seconds) {
    clearTimeout(retryTimer);
    var wait = seconds > 0 ? Math.min(seconds, 30) * 1000 : Math.min(10000, 500 * Math.pow(2, failures));
    retryTimer = setTimeout(pump, wait);
  }

  function pump() {
    if (sending) return;
    var items = load();
    if (!items.length) { showPending(); return; }
    var item = items[0];
    sending = true;
    clearTimeout(slowTimer);
    slowTimer = setTimeout(showPending, 1000);
    var ctrl = window.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () { if (ctrl) ctrl.abort(); }, 15000);
    var response = null;
    fetch(item.url, {
      method: "POST", body: item.body, credentials: "same-origin", signal: ctrl ? ctrl.signal : undefined,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true", "HX-Target": "live",
                 "HX-Current-URL": item.page }
    }).then(function (resp) {
      response = resp;
      return resp.text();
    }).then(function (html) {
      clearTimeout(timer);
      sending = false;
      var code = response.status;
      if (code === 429 || code === 502 || code === 503 || code === 504) {
        // Nothing was saved: the same tap (same id) goes again shortly.
        failures++;
        showPending();
        retryLater(parseInt(response.headers.get("Retry-After"), 10));
        return;
      }
      drop(item.id);
      failures = 0;
      offline = false;
      answered(item, response, html);
      showPending();
      pump();
    }).catch(function () {
      // No answer (no network, or it was lost on the way): keep the tap; it goes again with its id.
      clearTimeout(timer);
      sending = false;
      offline = true;
      failures++;
      showPending();
      retryLater();
    });
  }

  function answered(item, resp, html) {
    var redirect = resp.headers.get("HX-Redirect");
    if (redirect) { location.href = redirect; return; }
    if (item.table !== here || !live()) return;
    var code = resp.status;
    if (code === 200 || code === 409 || code === 422) {
      var incoming = parseInt(resp.headers.get("X-Table-Version"), 10);
      // An answer overtaken by a newer page (a later tap, another phone) is not shown, unless it
      // carries a message for this phone.
      if (code === 200 && incoming < shownVersion()) return;
      swapLive(html, item.key, true);
      if (code === 409) showConflict(item.key);
      else if (code === 422) showRefused(item.key);
      var push = resp.headers.get("HX-Push-Url"), replace = resp.headers.get("HX-Replace-Url");
      if (push) history.pushState({}, "", push);
      else if (replace) history.replaceState({}, "", replace);
    } else if (code >= 400) {
      var text = msg("failed");
      try {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var found = doc.querySelector("[data-error-message]");
        if (found) text = found.textContent;
      } catch (err) { /* keep the general message */ }
      status(text, "error", msg("reload"), function () { location.reload(); });
    }
  }

  /* A refused save (422): each message sits next to its box, which on a phone is often above the
     screen by the time the Save button is tapped, so the swap alone would say nothing. The first box
     refused comes into view with its message and takes the focus (the message is its description);
     a problem with the whole form shows the form's own message. Without JavaScript the page reloads
     at its top, where the same messages lead the page. */
  function showRefused(key) {
    var region = live();
    var form = key ? document.getElementById(key) : null;
    if (!region) return;
    var target = null;
    if (form && form.tagName === "FORM" && region.contains(form)) {
      for (var d = form.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
      target = form.querySelector('[aria-invalid="true"]') || form.querySelector(".error");
    }
    if (!target || !target.getClientRects().length) target = region.querySelector(":scope > .notice-error");
    if (!target) return;
    var wrap = target.closest(".field") || target;
    wrap.scrollIntoView({ block: "center" });
    if (target.matches("input, select, textarea")) target.focus({ preventScroll: true });
  }

  /* A stale save (409): the fresh page carries the conflict notice at its top, far above a form the
     player scrolled down to. The notice moves to just above the form that was refused (its entry is
     kept there), in the page's flow so it never covers the form's buttons, and the page scrolls to it
     when it is not wholly in view. With the form gone from the fresh page, the notice stays at the
     top and the page scrolls up to it. Without JavaScript the page reloads at its top, notice first. */
  function inRow(parent) {
    var s = getComputedStyle(parent);
    if (/flex/.test(s.display)) return !/column/.test(s.flexDirection);
    if (/grid/.test(s.display)) return s.gridTemplateColumns.trim().split(/\s+/).length > 1;
    return false;
  }
  function flowParent(el) {
    // A form laid out in a row (a counter, a toolbar) keeps its row: the notice goes above the row.
    var target = el;
    while (target.parentElement && target.parentElement !== live() && inRow(target.parentElement)) target = target.parentElement;
    return target;
  }

  function showConflict(key) {
    var region = live();
    var notice = region && region.querySelector(":scope > .notice-conflict");
    if (!notice) return;
    var form = key ? document.getElementById(key) : null;
    if (form && form.tagName === "FORM" && region.contains(form)) {
      for (var d = form.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
      if (form.getClientRects().length) {
        var target = flowParent(form);
        target.parentNode.insertBefore(notice, target);
        notice.classList.add("notice-at-form");
      }
    }
    // In view: the notice, and the form's Save button below it too when both fit on the screen.
    var pad = parseFloat(getComputedStyle(notice).scrollMarginTop) || 0;
    var box = notice.getBoundingClientRect();
    var saves = form && notice.classList.contains("notice-at-form")
      ? form.querySelectorAll('button:not([type="button"]), input[type="submit"]') : [];
    var bottom = saves.length ? saves[saves.length - 1].getBoundingClientRect().bottom : box.bottom;
    var room = window.innerHeight - 8;
    if (bottom - box.top <= room - pad) {
      if (box.top < pad) window.scrollBy(0, box.top - pad);
      else if (bottom > room) window.scrollBy(0, bottom - room);
    } else if (box.top < pad || box.bottom > room) {
      notice.scrollIntoView({ block: "start" });
    }
  }

  /* A table form's request, as htmx prepared it (after any confirmation, with the button tapped):
     it gets its own tap id and goes into the outbox instead. Leaving the table (a new link,
     deleting it) is not a table change to replay later: htmx sends those as usual. */
  document.addEventListener("htmx:configRequest", function (e) {
    var d = e.detail;
    if (d.verb !== "post" || !d.target || d.target.id !== "live") return;
    var path = d.path || "";
    if (!tokenOf(path) || /\/(link\/rotate|delete)$/.test(path.split("?")[0])) return;
    e.preventDefault();
    if (offlineCopy) return;
    var body = new URLSearchParams();
    d.formData.forEach(function (value, name) { if (typeof value === "string") body.append(name, value); });
    var id = tapId();
    body.set("sid", id);
    enqueue({ id: id, url: path, body: body.toString(), page: location.href, table: tokenOf(path),
              key: body.get("form_key") || "", at: Date.now() });
  });

  /* -- keeping what this phone typed through an update ------------------------------------------ */

  function initialOption(select) {
    for (var j = 0; j < select.options.length; j++) if (select.options[j].defaultSelected) return j;
    return 0;
  }

  function typed(form) {
    var fields = [];
    for (var i = 0; i < form.elements.length; i++) {
      var f = form.elements[i];
      if (!f.name || f.type === "hidden" || f.type === "submit" || f.type === "button" || f.disabled || f.readOnly) continue;
      if (f.type === "checkbox" || f.type === "radio") {
        if (f.checked !== f.defaultChecked) fields.push({ check: true, name: f.name, value: f.value, checked: f.checked, was: f.defaultChecked });
      } else if (f.tagName === "SELECT") {
        if (f.selectedIndex !== initialOption(f)) fields.push({ id: f.id, name: f.name, value: f.value, was: f.options[initialOption(f)] ? f.options[initialOption(f)].value : "" });
      } else if (f.value !== f.defaultValue) {
        fields.push({ id: f.id, name: f.name, value: f.value, was: f.defaultValue });
      }
    }
    return fields;
  }

  function keepInput(region, exceptKey) {
    var kept = {};
    var forms = region.querySelectorAll("form[id]");
    for (var i = 0; i < forms.length; i++) {
      if (forms[i].id === exceptKey) continue;
      var fields = typed(forms[i]);
      if (fields.length) kept[forms[i].id] = { v: forms[i].elements.v ? forms[i].elements.v.value : null, fields: fields };
    }
    return kept;
  }

  function mark(field, now) {
    var box = field.closest(".field") || field.parentNode;
    if (!box || box.querySelector("[data-changed-note]")) return;
    box.classList.add("changed-under");
    var note = document.createElement("p");
    note.className = "hint changed-note";
    note.setAttribute("data-changed-note", "");
    note.id = (field.id || field.name) + "-changed";
    note.textContent = msg("changed-under").replace("{value}", now === "" ? "—" : now);
    box.appendChild(note);
    var described = field.getAttribute("aria-describedby");
    field.setAttribute("aria-describedby", (described ? described + " " : "") + note.id);
  }

  function putBack(kept) {
    Object.keys(kept).forEach(function (formId) {
      var form = document.getElementById(formId);
      if (!form) return;
      var entry = kept[formId];
      // A form being filled in stays in view: the <details> holding it stays open.
      for (var d = form.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
      // The form keeps the version its input was typed on, so the server judges it on that view.
      if (entry.v !== null && form.elements.v) form.elements.v.value = entry.v;
      entry.fields.forEach(function (f) {
        if (f.check) {
          var boxes = form.querySelectorAll("input[name]");
          for (var i = 0; i < boxes.length; i++) {
            var b = boxes[i];
            if (b.name !== f.name || b.value !== f.value || (b.type !== "checkbox" && b.type !== "radio")) continue;
            if (b.defaultChecked !== f.was) mark(b, b.defaultChecked ? b.value : "");
            b.checked = f.checked;
          }
          return;
        }
        var el = f.id ? document.getElementById(f.id) : null;
        if (!el || el.form !== form) el = form.querySelector('[name="' + f.name.replace(/"/g, "") + '"]:not([type=radio]):not([type=checkbox]):not([type=hidden])');
        if (!el) return;
        var now = el.tagName === "SELECT" ? (el.options[initialOption(el)] || {}).value || "" : el.defaultValue;
        el.value = f.value;
        if (now !== f.was) mark(el, now);
        el.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });
  }

  function wouldLose(kept, html) {
    var ids = Object.keys(kept);
    if (!ids.length) return false;
    var doc = new DOMParser().parseFromString(html, "text/html");
    return ids.some(function (id) { return !doc.getElementById(id); });
  }

  var held = null;
  function swapLive(html, exceptKey, own) {
    var region = live();
    if (!region) return;
    var kept = keepInput(region, exceptKey);
    if (!own && wouldLose(kept, html)) {
      // The fresh page no longer has a form this phone is filling in: ask before dropping it.
      held = html;
      status(msg("held"), "held", msg("show"), function () { var h = held; held = null; status(""); swapLive(h, null, true); });
      return;
    }
    held = null;
    var focused = document.activeElement && document.activeElement.id;
    if (window.htmx && htmx.swap) {
      htmx.swap(region, html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
    } else {
      region.outerHTML = html;
    }
    putBack(kept);
    if (focused && document.activeElement === document.body) {
      var again = document.getElementById(focused);
      if (again) again.focus({ preventScroll: true });
    }
    if (document.querySelector("[data-live-status].live-status-held")) status("");
    saveCopy();
  }

  /* -- other phones' changes: pushed, or polled when there is no stream -------------------------- */

  var refreshing = false, refreshAgain = false;
  function refresh() {
    if (offlineCopy) return;
    var p = poller();
    if (!p) return;
    if (refreshing) { refreshAgain = true; return; }
    refreshing = true;
    var response = null;
    fetch(p.getAttribute("data-live-poll"), {
      credentials: "same-origin",
      headers: { "HX-Request": "true", "HX-Target": "live", "HX-Current-URL": location.href }
    }).then(function (resp) {
      response = resp;
      return resp.status === 200 ? resp.text() : null;
    }).then(function (html) {
      var incoming = parseInt(response.headers.get("X-Table-Version"), 10);
      if (html && !(incoming <= shownVersion())) swapLive(html, null, false);
    }).catch(function () { /* no network: the next push or poll tries again */ }).then(function () {
      refreshing = false;
      if (refreshAgain) { refreshAgain = false; refresh(); }
    });
  }

  var source = null, streamHeard = 0, streamFailures = 0, streamOff = false, reopenTimer = null;
  function closeStream() { if (source) { source.close(); source = null; } }
  function openStream() {
    var p = poller();
    if (!p || !window.EventSource || streamOff || offlineCopy || document.visibilityState === "hidden") return;
    var url = p.getAttribute("data-live-stream");
    if (!url) return;
    closeStream();
    clearTimeout(reopenTimer);
    var opened = false;
    var es = source = new EventSource(url + (url.indexOf("?") < 0 ? "?" : "&") + "v=" + shownVersion());
    es.onopen = function () { opened = true; streamHeard = Date.now(); };
    es.addEventListener("ping", function () { streamHeard = Date.now(); streamFailures = 0; });
    es.addEventListener("version", function (ev) {
      streamHeard = Date.now();
      streamFailures = 0;
      if (parseInt(ev.data, 10) > shownVersion()) refresh();
    });
    es.onerror = function () {
      if (es !== source) return;
      var refused = es.readyState === EventSource.CLOSED && !opened;
      closeStream();
      streamFailures++;
      // Refused (no streams on this server, or no room): poll. Else reconnect with the version shown.
      if (refused || streamFailures > 6) { streamOff = true; return; }
      reopenTimer = setTimeout(openStream, Math.min(30000, 500 * Math.pow(2, streamFailures)));
      refresh();
    };
  }
  function streaming() {
    return source && source.readyState === 1 && Date.now() - streamHeard < 2 * HEARTBEAT_MS + 5000;
  }

  function pollLoop() {
    var p = poller();
    var seconds = p ? parseInt(p.getAttribute("data-live-seconds"), 10) || 3 : 3;
    if (p && !streaming() && document.visibilityState !== "hidden") refresh();
    setTimeout(pollLoop, seconds * 1000);
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      refresh();
      if (!streaming()) openStream();
      pump();
    } else {
      closeStream();  // a phone in a pocket holds no connection; it comes back with its version
    }
  });
  window.addEventListener("online", function () { offline = false; pump(); refresh(); if (!streaming()) openStream(); });
  window.addEventListener("storage", function (e) { if (e.key === OUTBOX) showPending(); });

  /* -- the last copy of this page, for reading offline (service worker, where the browser has one) */

  var lastSaved = 0;
  function saveCopy() {
    if (offlineCopy || !here || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    if (Date.now() - lastSaved < 5000) return;
    lastSaved = Date.now();
    navigator.serviceWorker.controller.postMessage({ type: "save-table-page", url: location.href });
  }

  function showOfflineCopy() {
    var banner = document.querySelector("[data-offline-banner]");
    var when = parseInt(document.documentElement.getAttribute("data-offline-copy"), 10);
    if (banner) {
      var time = isNaN(when) ? "" : new Date(when).toLocaleString(document.documentElement.lang || undefined,
        { weekday: "short", hour: "2-digit", minute: "2-digit" });
      banner.querySelector("p").textContent = msg("offline-copy").replace("{time}", time);
      banner.hidden = false;
    }
    // Nothing here pretends to work: every control of the table is switched off.
    var controls = document.querySelectorAll("main form button, main form input, main form select, main form textarea, [data-wake-toggle]");
    for (var i = 0; i < controls.length; i++) controls[i].disabled = true;
    var tick = function () {
      fetch(location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
        .then(function (resp) { if (resp.ok) location.reload(); }, function () { setTimeout(tick, 10000); });
    };
    window.addEventListener("online", function () { location.reload(); });
    setTimeout(tick, 10000);
  }

  function start() {
    if (!here || !live()) return;
    if (offlineCopy) { showOfflineCopy(); return; }
    showPending();
    pump();
    openStream();
    setTimeout(pollLoop, 1000);
    if (navigator.serviceWorker) {
      if (navigator.serviceWorker.controller) saveCopy();
      navigator.serviceWorker.addEventListener("controllerchange", saveCopy);
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
