/* Rules reference: offline reading (service worker), the header's search sheet, what a failed search
   shows (the rules saved on this phone), tap-to-explain terms. Everything works without this file;
   it only makes it quicker and keeps the rules readable with no network. No inline script (CSP). */
(function () {
  "use strict";

  var root = document.querySelector("[data-sw]");
  if (!root) return;
  var rulesRoot = root.getAttribute("data-rules-root");
  var indexUrl = root.getAttribute("data-rules-index");
  var currentGame = root.getAttribute("data-rules-game") || "";

  function msg(key) {
    var tpl = document.getElementById("rules-messages");
    var el = tpl && tpl.content ? tpl.content.querySelector('[data-msg="' + key + '"]') : null;
    return el ? el.textContent : "";
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;  // text only: nothing from the network is parsed as HTML
    return node;
  }

  /* Offline: register the service worker; on a game's pages ask it to save that game's rules. */
  function onRulesPage() {
    return location.pathname === rulesRoot || location.pathname.indexOf(rulesRoot + "/") === 0;
  }

  function showSaved(data) {
    var box = document.querySelector('[data-saved-status="' + data.game + '"]');
    if (box && data.complete) box.textContent = msg("saved");
  }

  if ("serviceWorker" in navigator && window.isSecureContext) {
    // Registered once the page has loaded and the phone is idle, so the first visit's own loading
    // never waits on the worker starting up.
    var register = function () {
      navigator.serviceWorker.register(root.getAttribute("data-sw")).catch(function () {
        /* no offline copy on this browser: the pages still work online */
      });
    };
    var whenIdle = function () {
      if (window.requestIdleCallback) window.requestIdleCallback(register, { timeout: 3000 });
      else setTimeout(register, 0);
    };
    if (document.readyState === "complete") whenIdle();
    else window.addEventListener("load", whenIdle);
    navigator.serviceWorker.addEventListener("message", function (e) {
      if (e.data && e.data.type === "rules-saved") showSaved(e.data);
    });
    if (currentGame) {
      navigator.serviceWorker.ready.then(function (reg) {
        // On a table page the table comes first: save its game's rules once the page has settled.
        setTimeout(function () {
          if (reg.active) reg.active.postMessage({ type: "save-rules", game: currentGame, lang: document.documentElement.lang });
        }, onRulesPage() ? 0 : 4000);
      });
    }
  }

  /* The rules saved on this phone, current game first, as lists of links in `container`
     (unless `stillWanted` says the container has moved on by the time the cache answers). */
  function listSaved(container, stillWanted) {
    var wanted = stillWanted || function () { return true; };
    var done = function (found) {
      if (!found && wanted()) container.appendChild(el("p", "hint", msg("offline-none")));
    };
    if (!window.caches || !indexUrl) return done(false);
    return caches.match(indexUrl).then(function (response) {
      return response ? response.json() : null;
    }).then(function (index) {
      if (!index || !index.games) return done(false);
      var games = index.games.slice().sort(function (a, b) {
        return (b.key === currentGame) - (a.key === currentGame);
      });
      return Promise.all(games.map(function (g) {
        var urls = [g.url].concat(g.sections.map(function (s) { return s.url; }));
        return Promise.all(urls.map(function (u) { return caches.match(u, { ignoreVary: true }); }))
          .then(function (hits) { return { game: g, hits: hits }; });
      })).then(function (all) {
        if (!wanted()) return;
        var found = false;
        all.forEach(function (entry) {
          var saved = entry.game.sections.filter(function (s, i) { return entry.hits[i + 1]; });
          if (!saved.length) return;
          found = true;
          var box = el("div", "card saved-game");
          var title = el("p", "toc-game");
          if (entry.hits[0]) {
            var a = el("a", "", entry.game.title);
            a.href = entry.game.url;
            title.appendChild(a);
          } else {
            title.textContent = entry.game.title;
          }
          box.appendChild(title);
          var list = el("ul", "toc");
          saved.forEach(function (s) {
            var li = el("li");
            var link = el("a", "", s.title);
            link.href = s.url;
            li.appendChild(link);
            list.appendChild(li);
          });
          box.appendChild(list);
          container.appendChild(box);
        });
        done(found);
      });
    }).catch(function () { done(false); });
  }

  /* A search that cannot reach the server: say so and offer what can be read offline. */
  function searchForm(e) {
    return e.target && e.target.closest ? e.target.closest("[data-rules-search]") : null;
  }

  function showUnreachable(form, key) {
    var prefix = form.id.replace(/-form$/, "");
    var results = document.getElementById(prefix + "-results");
    var status = document.getElementById(prefix + "-status");
    if (!results) return;
    // Already showing it: leave the list alone (it may be under the player's thumb).
    if (results.getAttribute("data-unreachable") === key && results.firstChild) return;
    results.setAttribute("data-unreachable", key);
    results.textContent = "";
    results.appendChild(el("p", "offline-note", msg(key)));
    if (status) status.textContent = msg(key);
    listSaved(results, function () { return results.getAttribute("data-unreachable") === key; });
  }

  // An answer from the server replaces the offline note: forget it was shown.
  document.addEventListener("htmx:afterSwap", function (e) {
    if (e.target && e.target.removeAttribute) e.target.removeAttribute("data-unreachable");
  });

  // Known to be offline: answer at once instead of waiting for the request to fail.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = searchForm(e);
    if (!form || navigator.onLine !== false) return;
    e.preventDefault();
    showUnreachable(form, "offline-search");
  }, true);
  // The request failed: not the table's "change not saved" toast, nothing was being saved.
  document.addEventListener("htmx:sendError", function (e) {
    var form = searchForm(e);
    if (!form) return;
    e.stopPropagation();
    showUnreachable(form, "offline-search");
  }, true);
  document.addEventListener("htmx:responseError", function (e) {
    var form = searchForm(e);
    if (!form || !e.detail || !e.detail.xhr || e.detail.xhr.status < 500) return;
    e.stopPropagation();
    showUnreachable(form, "unavailable");
  }, true);

  var offlineToc = document.querySelector("[data-offline-toc]");
  if (offlineToc) listSaved(offlineToc);

  /* The header's search sheet: the box takes the focus in the same tap that opens it (a phone only
     raises its keyboard for a focus given during the tap); Escape or a tap elsewhere closes it. */
  var panel = document.querySelector(".search-panel");
  var summary = panel && panel.querySelector("summary");
  if (summary) {
    summary.addEventListener("click", function (e) {
      e.preventDefault();
      panel.open = !panel.open;
      var box = panel.open ? panel.querySelector("input[type=search]") : null;
      if (box) box.focus();
    });
  }

  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (!d.open) return;
    if (d.matches && d.matches("details.term")) {
      // One explanation open at a time.
      var open = document.querySelectorAll("details.term[open]");
      for (var i = 0; i < open.length; i++) if (open[i] !== d) open[i].open = false;
    }
  }, true);

  function closeAll(except) {
    var open = document.querySelectorAll("details.term[open], .search-panel[open]");
    for (var i = 0; i < open.length; i++) if (open[i] !== except && !open[i].contains(except)) open[i].open = false;
  }

  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    var open = document.activeElement && document.activeElement.closest
      ? document.activeElement.closest("details[open]") : null;
    closeAll(null);
    if (open) {
      var summary = open.querySelector("summary");
      if (summary) summary.focus();
    }
  });

  document.addEventListener("click", function (e) {
    var inside = e.target.closest ? e.target.closest("details.term, .search-panel") : null;
    closeAll(inside);
  });
})();
