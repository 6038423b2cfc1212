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
  // What the player entered: kept through an update, and a refused entry's notice beside it (09-entries.js).
  var entries = window.companionEntries;
  var keepInput = entries.keepInput, putBack = entries.putBack, wouldLose = entries.wouldLose;
  var openDisclosures = entries.openDisclosures, reopen = entries.reopen;
  var showConflict = entries.showConflict;
  var showRefused = entries.showRefused;
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
    // The pending marks on the page (12-pending.js) follow the outbox.
    document.dispatchEvent(new CustomEvent("companion:outbox", { detail: { items: items } }));
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
  // The last tap the server refused (409/422) since this phone's last tap: { text, key }. While it
  // stands the status line says so, never "saved".
  var refusal = null;

  /* The status line says what happened to the taps: still waiting (how many), refused (why, with a
     button to the entry kept), or saved once a tap that was shown waiting is answered 200. */
  function showPending() {
    var n = mine().length;
    if (refusal) {
      var shown = refusal;
      status(shown.text + (n ? " " + plural(n) : ""), "refused", msg("show-entry"), function () { showEntry(shown.key, shown.page); });
    } else if (n && (offline || offlineCopy || showedPending || (sending && Date.now() - (mine()[0].at || 0) > 900))) {
      showedPending = true;
      status(plural(n), "pending");
    } else if (!n && showedPending) {
      showedPending = false;
      status(msg("saved"), "sent");
      statusTimer = setTimeout(function () { status(""); }, 4000);
    }
  }

  /* The kept entry of a refused tap: its form (opened, scrolled to, its first field focused), or the
     refusal notice at the top when the fresh page no longer has that form. A tap made on another
     page of the table (the phone moved on while it waited) is shown on that page. */
  function showEntry(key, page) {
    var form = key ? document.getElementById(key) : null;
    var region = live();
    var notice = region && region.querySelector(".notice-conflict, .notice-error");
    var here = form && form.tagName === "FORM" && region.contains(form);
    if (!here && page) { location.href = page; return; }
    var target = here ? form : notice;
    if (!target) return;
    for (var d = target.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
    var at = notice && notice.classList.contains("notice-at-form") ? notice : target;
    at.scrollIntoView({ block: "start" });
    var field = form && form.querySelector("input:not([type=hidden]):not([disabled]), select, textarea, button");
    if (field) field.focus({ preventScroll: true });
  }

  /* Why the server refused a tap, in the player's words, read from its answer. */
  function refusalText(code, html, key) {
    var doc = null;
    try { doc = new DOMParser().parseFromString(html, "text/html"); } catch (err) { doc = null; }
    var why = "";
    if (code === 409) {
      // The notice on the page says it at length; the status line names what changed first.
      var what = doc && doc.querySelector(".notice-conflict li");
      return what ? msg("refused-conflict-what").replace("{what}", what.textContent.trim()) : msg("refused-conflict");
    }
    if (doc) {
      var field = key && doc.getElementById(key);
      var err = (field && field.querySelector(".error")) || doc.querySelector(".notice-error li, .notice-error p");
      why = err ? err.textContent.trim() : "";
    }
    return msg("refused-invalid").replace("{why}", why);
  }

  function enqueue(item) {
    refusal = null;  // a new tap: the status line now follows it
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
      if (response.headers.get("X-Refused") === "csrf" && !item.freshToken) {
        // The page's token is no longer this phone's (its session was renewed while the tap waited):
        // nothing was applied, so the same tap (same id) goes again with the phone's token now.
        sending = true;
        freshToken(item);
        return;
      }
      drop(item.id);
      failures = 0;
      offline = false;
      if (code === 200) rebase(item, parseInt(response.headers.get("X-Table-Version"), 10));
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

  /* Taps queued on one view of the table carry that view's version (`v`). Once the first of them is
     saved and the table moved by exactly that tap, the later ones were made on a view that already
     held it (this phone's own tap): they go with the new version, so the server does not take this
     phone's own earlier tap for another phone's change. When anything else landed in between they
     keep the version they were made on and the server judges them on it. */
  function rebase(item, now) {
    var sent = parseInt(new URLSearchParams(item.body).get("v"), 10);
    if (isNaN(sent) || now !== sent + 1) return;
    save(load().map(function (other) {
      if (other.table !== item.table) return other;
      var body = new URLSearchParams(other.body);
      if (parseInt(body.get("v"), 10) !== sent) return other;
      body.set("v", String(now));
      other.body = body.toString();
      return other;
    }));
  }

  /* A fresh CSRF token from the table page itself, put in every tap waiting for this table. */
  function freshToken(item) {
    fetch(item.page, { credentials: "same-origin", cache: "no-store" }).then(function (resp) {
      return resp.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var input = doc.querySelector('input[name="csrf_token"]');
      if (!input) throw new Error("no token");
      save(load().map(function (other) {
        if (other.table !== item.table) return other;
        var body = new URLSearchParams(other.body);
        body.set("csrf_token", input.value);
        other.body = body.toString();
        if (other.id === item.id) other.freshToken = true;
        return other;
      }));
      sending = false;
      pump();
    }).catch(function () {
      sending = false;
      failures++;
      retryLater();
    });
  }

  /* The page a tap was made on is the one shown (same address and query), or the phone has moved
     to another page of the table since (a link or a reload while the tap waited). */
  function madeHere(page) {
    try {
      var u = new URL(page, location.href);
      return u.pathname === location.pathname && u.search === location.search;
    } catch (err) { return true; }
  }

  function answered(item, resp, html) {
    var redirect = resp.headers.get("HX-Redirect");
    if (redirect) { location.href = redirect; return; }
    if (item.table !== here || !live()) return;
    var code = resp.status;
    if (code === 200 || code === 409 || code === 422) {
      var incoming = parseInt(resp.headers.get("X-Table-Version"), 10);
      var elsewhere = !madeHere(item.page);
      // An answer overtaken by a newer page (a later tap, another phone) is not shown, unless it
      // carries a message for this phone.
      if (code === 409 || code === 422) {
        refusal = { text: refusalText(code, html, item.key), key: item.key, page: elsewhere ? item.page : null };
      }
      // The answer is the region of the page the tap was made on: another page of the table
      // fetches its own region instead (the status line says a refusal, and shows its entry there).
      if (elsewhere) { refresh(); return; }
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

  /* A table form's request, as htmx prepared it (after any confirmation, with the button tapped):
     it gets its own tap id and goes into the outbox instead. Leaving the table (a new link,
     deleting it) is not a table change to replay later: htmx sends those as usual. */
  function queueable(path) {
    return !!tokenOf(path) && !/\/(link\/rotate|delete)$/.test(path.split("?")[0]);
  }
  document.addEventListener("htmx:configRequest", function (e) {
    var d = e.detail;
    if (d.verb !== "post" || !d.target || d.target.id !== "live") return;
    var path = d.path || "";
    if (!queueable(path)) return;
    e.preventDefault();
    var body = new URLSearchParams();
    d.formData.forEach(function (value, name) { if (typeof value === "string") body.append(name, value); });
    var id = tapId();
    body.set("sid", id);
    // What the page may show before the answer (12-pending.js): a declared increment its delta, else
    // only that the tap waits. The server's declaration (data-relative) decides, never the phone.
    var form = d.elt && (d.elt.tagName === "FORM" ? d.elt : d.elt.closest && d.elt.closest("form"));
    var relative = !!(form && form.hasAttribute("data-relative"));
    var delta = parseInt(body.get("delta"), 10);
    enqueue({ id: id, url: path, body: body.toString(), page: location.href, table: tokenOf(path),
              key: body.get("form_key") || "", at: Date.now(), relative: relative, delta: isNaN(delta) ? null : delta });
  });

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
    var opened = openDisclosures(region, exceptKey);
    var focused = document.activeElement && document.activeElement.id;
    if (window.htmx && htmx.swap) {
      htmx.swap(region, html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
    } else {
      region.outerHTML = html;
    }
    reopen(live(), opened);
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
    var es = source = new EventSource(url + (url.indexOf("?") < 0 ? "?" : "&") + "_v=" + shownVersion());
    es.onopen = function () { opened = true; streamHeard = Date.now(); };
    es.addEventListener("ping", function () { streamHeard = Date.now(); streamFailures = 0; });
    es.addEventListener("version", function (ev) {
      streamHeard = Date.now();
      streamFailures = 0;
      if (parseInt(ev.data, 10) > shownVersion()) refresh();
    });
    // The change itself: this phone's live region at that version, rendered for this page (the
    // stream's address names it). Applied as a fetched region is (htmx's swap, typing kept); a page
    // that has moved to another page or query since the stream opened, or a region that does not
    // parse as one, fetches instead, and the stream follows the page.
    es.addEventListener("region", function (ev) {
      streamHeard = Date.now();
      streamFailures = 0;
      var incoming = parseInt(ev.lastEventId, 10);
      if (!(incoming > shownVersion())) return;
      var now = poller();
      var region = /^\s*<div id="live" data-version="(\d+)"/.exec(ev.data);
      if (!now || now.getAttribute("data-live-stream") !== url || !region || +region[1] !== incoming) {
        refresh();
        if (now && now.getAttribute("data-live-stream") !== url) openStream();
        return;
      }
      swapLive(ev.data, null, false);
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

  /* The saved copy, opened without network: every table tap works (it goes to the outbox, kept on
     this phone, and shows as pending); only what truly needs the server (a new link, deleting the
     table) is switched off and says so. When the network is back the copy comes to life in place:
     the outbox is sent in order and each answer replaces the region, refusals included. */
  var offControls = [];
  function showOfflineCopy() {
    var banner = document.querySelector("[data-offline-banner]");
    var when = parseInt(document.documentElement.getAttribute("data-offline-copy"), 10);
    if (banner) {
      var time = isNaN(when) ? "" : new Date(when).toLocaleString(document.documentElement.lang || undefined,
        { weekday: "short", hour: "2-digit", minute: "2-digit" });
      banner.querySelector("p").textContent = msg("offline-copy").replace("{time}", time);
      banner.hidden = false;
    }
    var forms = document.querySelectorAll("main form");
    for (var i = 0; i < forms.length; i++) {
      var f = forms[i];
      var path = f.getAttribute("hx-post") || "";
      if (f.method === "get" || (path && queueable(path) && f.getAttribute("hx-target") === "#live")) continue;
      for (var j = 0; j < f.elements.length; j++) {
        if (f.elements[j].type === "hidden" || f.elements[j].disabled) continue;
        f.elements[j].disabled = true;
        offControls.push(f.elements[j]);
      }
      var note = document.createElement("p");
      note.className = "hint needs-network";
      note.setAttribute("data-needs-network", "");
      note.textContent = msg("needs-network");
      f.appendChild(note);
    }
    var tick = function () {
      if (!offlineCopy) return;
      fetch(location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
        .then(function (resp) { if (resp.ok) backOnline(); else setTimeout(tick, 10000); }, function () { setTimeout(tick, 10000); });
    };
    window.addEventListener("online", backOnline);
    setTimeout(tick, 10000);
    showPending();
  }

  function backOnline() {
    if (!offlineCopy) return;
    offlineCopy = false;
    offline = false;
    document.documentElement.removeAttribute("data-offline-copy");
    var banner = document.querySelector("[data-offline-banner]");
    if (banner) banner.hidden = true;
    offControls.forEach(function (c) { c.disabled = false; });
    offControls = [];
    var notes = document.querySelectorAll("[data-needs-network]");
    for (var i = 0; i < notes.length; i++) notes[i].remove();
    clearTimeout(retryTimer);
    pump();
    refresh();
    openStream();
    setTimeout(pollLoop, 1000);
  }

  function start() {
    if (!here || !live()) return;
    if (offlineCopy) { showOfflineCopy(); pump(); return; }
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
