// Offline on request: "keep for offline use" puts every file of this export (data/files.*.json lists
// them) into the service worker's cache, named by the version. The worker (sw.js) is registered here; the
// offline section shows only once it is.
"use strict";

async function keepOffline() {
  const m = state.manifest, bar = $("keep-progress"), listing = await getJSON(m.files);
  const names = ["./", "data/manifest.json", ...Object.keys(listing)];
  const cache = await caches.open(`ladders-${m.version}`);
  let done = 0, bytes = 0, next = 0;
  $("keep").disabled = true; bar.hidden = false; bar.max = m.bytes;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++], url = new URL(name, location.href).href;
      if (!(await cache.match(url))) {
        const response = await fetch(url, { cache: "no-cache" });
        if (!response.ok) throw new Error(`${name}: ${response.status}`);
        await cache.put(url, response);
      }
      bytes += listing[name] ?? 0; bar.value = bytes; done++;
      $("keep-status").textContent = `${done} of ${names.length} files`;
    }
  };
  try {
    await Promise.all([1, 2, 3, 4].map(worker));
    // Marked kept, then the copies of older exports let go: only now that this one is whole (sw.js).
    await cache.put(new URL("ladders-kept-for-offline-use", location.href).href, new Response(m.version));
    for (const name of await caches.keys()) {
      if (name.startsWith("ladders-") && name !== `ladders-${m.version}`) await caches.delete(name);
    }
    $("keep-status").textContent = `Kept for offline use: ${(m.bytes / 1e6).toFixed(1)} MB.`;
    document.body.dataset.offline = "kept";
  } catch (err) {
    $("keep-status").textContent = `Could not keep everything: ${err.message}. Try again when online.`;
    $("keep").disabled = false;
  }
}

$("keep").addEventListener("click", keepOffline);

if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("sw.js").then(() => {
    $("offline").hidden = false;
  }).catch(() => {});
}
