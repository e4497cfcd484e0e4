// The service worker of the installed site. It keeps the static shell (pages, style sheets, scripts,
// icons) so that the site opens from the home screen, and nothing else: the API, the WebSocket, the
// metrics and the player pages always go to the server and are never stored here.
// Pages and scripts are fetched from the network first and the stored copy is used only offline, so a
// deploy takes effect at the next load; VERSION names the cache, and a worker of another version
// deletes the caches of the old one when it takes over.
const VERSION = "ulti-shell-v1";
const SHELL = [
  "/", "/index.html", "/table.html", "/matches.html", "/rules.html", "/account.html", "/leaderboard.html",
  "/event.html", "/css/style.css", "/css/theme.css", "/favicon.svg", "/manifest.webmanifest",
  "/icons/icon-192.png", "/icons/icon-512.png", "/icons/maskable-512.png",
];

/** Whether a request is part of the static shell (same origin, GET, a page or a static file). */
function isShell(request) {
  if (request.method !== "GET") return false;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return false;
  const path = url.pathname;
  if (path.startsWith("/api/") || path === "/ws" || path.startsWith("/@/") || path === "/metrics" || path === "/healthz") {
    return false;
  }
  return path === "/" || path.endsWith(".html") || path.startsWith("/js/") || path.startsWith("/css/")
    || path.startsWith("/icons/") || path === "/favicon.svg" || path === "/manifest.webmanifest";
}

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("ulti-shell-") && k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  if (!isShell(event.request)) return; // the browser fetches it as if there were no worker
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok && response.type === "basic") {
          const copy = response.clone();
          caches.open(VERSION).then((cache) => cache.put(event.request, copy));
        }
        return response;
      })
      .catch(() => caches.match(event.request, { ignoreSearch: true })
        .then((hit) => hit || caches.match("/index.html"))),
  );
});
