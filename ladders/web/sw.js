// The service worker of the page. Its cache is named by the export's version (export-web writes it in
// below), so a new export is a new worker: when it activates it deletes the caches of older exports,
// except one the visitor kept for offline use (marked KEPT): that one goes only once the page has kept the
// new export whole, so an online visit after a re-export never leaves the visitor with nothing offline.
// Files whose names hold their content's hash (data/i, b, defs, s) never change: answered from the cache
// first, and kept there once fetched. Everything else (the page, data/manifest.json) is asked of the
// network first, so a re-export reaches a returning visitor on the next load; the cached copy answers
// only offline. Nothing is downloaded ahead: "keep for offline use" on the page fills the cache on request.
"use strict";
const CACHE = "ladders-@VERSION@";
const HASHED = /\/data\/.+\.[0-9a-f]{16}\.json$/;
const KEPT = new URL("ladders-kept-for-offline-use", self.location.href).href;  // a marker entry, never fetched

self.addEventListener("install", (event) => event.waitUntil(self.skipWaiting()));

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("ladders-") && name !== CACHE && !(await (await caches.open(name)).match(KEPT))) {
        await caches.delete(name);
      }
    }
    await self.clients.claim();
  })());
});

async function keptCache() {  // this export's cache if it was kept for offline use, else an older kept one
  const names = (await caches.keys()).filter((n) => n.startsWith("ladders-"));
  for (const name of [CACHE, ...names.filter((n) => n !== CACHE)]) {
    if (names.includes(name) && await (await caches.open(name)).match(KEPT)) return caches.open(name);
  }
  return null;
}

async function keep(request, response, hashed) {
  const cache = await caches.open(CACHE);
  // A copy kept for offline use stays as it was kept: the page and manifest of a newer export (met online
  // while this worker still runs) would name files that copy does not hold.
  if (response.ok && (hashed || !(await cache.match(KEPT)))) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  url.search = "";  // ?from=...&to=... asks for the same page
  const key = url.href;
  if (HASHED.test(url.pathname)) {
    event.respondWith(caches.match(key).then((hit) => hit || fetch(event.request).then((r) => keep(key, r, true))));
  } else {
    event.respondWith(fetch(event.request).then((r) => keep(key, r, false), async () => {
      // Offline: the page and manifest of the copy kept whole, when there is one (a newer export's manifest,
      // met online since, names files that were never kept); else whatever was fetched.
      const kept = await keptCache();
      const hit = (kept && await kept.match(key)) || await caches.match(key);
      if (hit) return hit;
      throw new Error(`offline, and ${url.pathname} is not kept`);
    }));
  }
});
