/* Table Companion's service worker (rendered by companion.rules, served at /sw.js so its scope is the
   whole site). It keeps the rules reference readable with no network:
   - static files (fingerprinted URLs) come from the cache first;
   - rules pages come from the network when it answers within a few seconds, else from the cache, and
     every page that arrives is saved; a rules page never saved shows the offline page, which lists
     the rules saved on this phone;
   - when a page asks ("save-rules"), every page of that game's rules is saved in the background.
   - a table page (issue 26) comes from the network; the last copy of each one this phone opened is
     kept, and shown, marked as an offline copy (`data-offline-copy` on <html>), when the network is
     gone; the page's taps then go to its outbox and are sent when the network is back (10-live.js).
   Forms, htmx requests and the table's event stream are never touched: they always go to the network. */
"use strict";

const VERSION = {{ version|tojson }};
const CACHE = "companion-" + VERSION;
const PRECACHE = {{ precache|tojson }};
const OFFLINE_URL = {{ offline_url|tojson }};
const INDEX_URL = {{ index_url|tojson }};
const RULES_ROOT = {{ rules_root|tojson }};
const SEARCH_URL = {{ search_url|tojson }};
const STATIC_ROOT = {{ static_root|tojson }};
const WAIT_FOR_NETWORK_MS = 3000;
const MARKER = RULES_ROOT + "/__saved/";
// Table pages live in a cache of their own (not dropped with each new version of the worker).
const TABLES = "tables-v1";
const TABLES_KEPT = 60;
const TABLE_PAGE = /^\/t\/[A-Za-z0-9_-]{24}(\/[a-z0-9-]{1,24})?$/;
// A finished table's result image (issue 35): kept with the table's pages, for sharing offline.
const TABLE_IMAGE = /^\/t\/[A-Za-z0-9_-]{24}\/result\.png$/;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(PRECACHE.map((url) => new Request(url, { credentials: "same-origin" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith("companion-") && n !== CACHE).map((n) => caches.delete(n)));
    await self.clients.claim();
  })());
});

function isRulesPage(url) {
  return url.pathname === RULES_ROOT || url.pathname.startsWith(RULES_ROOT + "/");
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && TABLE_PAGE.test(url.pathname) && !request.headers.get("HX-Request")) {
    event.respondWith(tablePage(event));
  } else if (TABLE_IMAGE.test(url.pathname)) {
    event.respondWith(tableImage(event));
  } else if (url.pathname.startsWith(STATIC_ROOT)) {
    event.respondWith(cacheFirst(event));
  } else if (request.headers.get("HX-Request")) {
    // Live fragments (search results, a table's region): the network only. A failed search says so.
  } else if (url.pathname === SEARCH_URL) {
    if (request.mode === "navigate") event.respondWith(networkOrOffline(request));
  } else if (isRulesPage(url)) {
    event.respondWith(networkFirst(event));
  }
});

async function cacheFirst(event) {
  const cache = await caches.open(CACHE);
  const saved = await cache.match(event.request, { ignoreVary: true });
  if (saved) return saved;
  const response = await fetch(event.request);
  if (response.ok && response.type === "basic") event.waitUntil(cache.put(event.request, response.clone()));
  return response;
}

async function offlinePage() {
  const page = await caches.match(OFFLINE_URL, { ignoreVary: true });
  return page || Response.error();
}

async function networkOrOffline(request) {
  try {
    return await fetch(request);
  } catch (err) {
    return offlinePage();
  }
}

async function networkFirst(event) {
  const request = event.request;
  const key = request.url.split("#")[0];
  const cache = await caches.open(CACHE);
  const network = fetch(request).then((response) => {
    if (response.ok && response.type === "basic" && !response.redirected) {
      event.waitUntil(cache.put(key, response.clone()));
    }
    return response;
  });
  network.catch(() => {});  // a late failure after the saved copy was shown is not an error
  const slow = new Promise((resolve) => setTimeout(resolve, WAIT_FOR_NETWORK_MS, null));
  try {
    const first = await Promise.race([network, slow]);
    if (first) return first;
    // A slow network: show the saved copy now if there is one (the fresh one is still saved).
    const saved = await cache.match(key, { ignoreVary: true });
    return saved || await network;
  } catch (err) {
    const saved = await cache.match(key, { ignoreVary: true });
    if (saved) return saved;
    return request.mode === "navigate" ? offlinePage() : Response.error();
  }
}

async function keepTablePage(key, response) {
  if (!response.ok || response.type !== "basic" || response.redirected) return;
  const body = await response.text();
  const cache = await caches.open(TABLES);
  await cache.put(key, new Response(body, { headers: {
    "Content-Type": response.headers.get("Content-Type") || "text/html; charset=utf-8",
    "X-Saved-At": String(Date.now()) } }));
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - TABLES_KEPT))) await cache.delete(old);
}

async function tablePage(event) {
  const key = event.request.url.split("#")[0];
  try {
    const response = await fetch(event.request);
    event.waitUntil(keepTablePage(key, response.clone()).catch(() => {}));
    return response;
  } catch (err) {
    const saved = await (await caches.open(TABLES)).match(key, { ignoreVary: true });
    if (!saved) return offlinePage();
    const when = saved.headers.get("X-Saved-At") || "";
    const html = (await saved.text()).replace("<html ", `<html data-offline-copy="${when.replace(/\D/g, "")}" `);
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
}

async function tableImage(event) {
  const key = event.request.url.split("#")[0];
  const cache = await caches.open(TABLES);
  try {
    const response = await fetch(event.request);
    if (response.ok && response.type === "basic") event.waitUntil(cache.put(key, response.clone()));
    return response;
  } catch (err) {
    return (await cache.match(key, { ignoreVary: true })) || Response.error();
  }
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "save-table-page" && typeof data.url === "string") {
    const url = new URL(data.url, self.location.origin);
    if (url.origin === self.location.origin && TABLE_PAGE.test(url.pathname)) {
      const key = url.href.split("#")[0];
      event.waitUntil(fetch(key, { credentials: "same-origin" }).then((r) => keepTablePage(key, r)).catch(() => {}));
    }
    return;
  }
  if (data.type === "save-rules" && typeof data.game === "string") {
    event.waitUntil(saveGame(data.game, String(data.lang || ""), event.source));
  }
});

function tell(client, game, complete) {
  if (client && typeof client.postMessage === "function") client.postMessage({ type: "rules-saved", game, complete });
}

async function saveGame(game, lang, client) {
  const cache = await caches.open(CACHE);
  const marker = MARKER + encodeURIComponent(game) + "/" + encodeURIComponent(lang);
  if (await cache.match(marker)) {
    tell(client, game, true);
    return;
  }
  let index;
  try {
    const response = await fetch(INDEX_URL, { credentials: "same-origin" });
    if (!response.ok) return;
    await cache.put(INDEX_URL, response.clone());
    index = await response.json();
  } catch (err) {
    return;
  }
  const entry = (index.games || []).find((g) => g.key === game);
  if (!entry) return;
  const urls = [entry.url].concat(entry.sections.map((s) => s.url));
  let complete = true;
  // A few at a time, so the table's own requests are never held up for long.
  for (let i = 0; i < urls.length; i += 4) {
    await Promise.all(urls.slice(i, i + 4).map(async (url) => {
      try {
        const response = await fetch(url, { credentials: "same-origin" });
        if (response.ok && !response.redirected) await cache.put(url, response);
        else complete = false;
      } catch (err) {
        complete = false;
      }
    }));
  }
  if (complete) await cache.put(marker, new Response("saved"));
  tell(client, game, complete);
}
