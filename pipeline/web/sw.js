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

async function keep(request, response) {
  if (response.ok) await (await caches.open(CACHE)).put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  url.search = "";  // ?from=...&to=... asks for the same page
  const key = url.href;
  if (HASHED.test(url.pathname)) {
    event.respondWith(caches.match(key).then((hit) => hit || fetch(event.request).then((r) => keep(key, r))));
  } else {
    event.respondWith(fetch(event.request).then((r) => keep(key, r), async () => {
      const hit = await caches.match(key);
      if (hit) return hit;
      throw new Error(`offline, and ${url.pathname} is not kept`);
    }));
  }
});
