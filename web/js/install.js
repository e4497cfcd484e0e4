// Installing the site on a phone's home screen: the service worker (/sw.js) that the browser asks for
// before it offers "Add to home screen" (with the manifest, /manifest.webmanifest, linked by each page).
// The worker keeps only the page's static shell for offline starts; the game itself needs the network.

/** Register the service worker once the page has loaded (it never delays the page itself). */
export function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const register = () => navigator.serviceWorker.register("/sw.js").catch(() => { /* not installable here */ });
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
