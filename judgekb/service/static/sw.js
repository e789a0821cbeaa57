// judgekb service worker (served as /sw.js by judgekb/service/pwa.py, which puts
// `const CONFIG = {version, bundle, shells, precache}` before this line).
//
// Pages come from the network (navigation preload, so the worker never delays them); when
// the network fails or stalls, the offline shell in the judge's language answers instead and
// draws the page from the bundle. Static files are served from this version's cache. The
// bundle lives in its own cache, kept until a newer one is stored: an old copy beats none.
"use strict";
var APP_CACHE = "judgekb-app-" + CONFIG.version;
var BUNDLE_CACHE = "judgekb-bundle";
var PREFS_CACHE = "judgekb-prefs";
var LANG_KEY = "/__judgekb/lang";
var NETWORK_TIMEOUT_MS = 6000;
var lang = null;

function shellLangs() { return Object.keys(CONFIG.shells); }

function notify(message) {
  return self.clients.matchAll({ includeUncontrolled: true }).then(function (clients) {
    clients.forEach(function (c) { c.postMessage(message); });
  });
}

// Store the bundle (decoded, as plain JSON) and drop older versions once it is in.
function cacheBundle() {
  return caches.open(BUNDLE_CACHE).then(function (cache) {
    return cache.match(CONFIG.bundle).then(function (have) {
      if (have) { return cache; }
      return fetch(CONFIG.bundle, { cache: "reload" }).then(function (r) {
        if (!r.ok) { throw new Error("bundle HTTP " + r.status); }
        return r.blob();
      }).then(function (blob) {
        var copy = new Response(blob, { headers: { "Content-Type": "application/json" } });
        return cache.put(CONFIG.bundle, copy);
      }).then(function () { return cache; });
    });
  }).then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) {
        return new URL(k.url).pathname !== CONFIG.bundle;
      }).map(function (k) { return cache.delete(k); }));
    });
  }).then(function () { return notify({ type: "bundle-cached", url: CONFIG.bundle }); });
}

self.addEventListener("install", function (event) {
  var urls = CONFIG.precache.concat(shellLangs().map(function (l) { return CONFIG.shells[l]; }));
  event.waitUntil(
    caches.open(APP_CACHE)
      .then(function (cache) {
        return cache.addAll(urls.map(function (u) { return new Request(u, { cache: "reload" }); }));
      })
      .then(function () { return cacheBundle().catch(function () { /* the button retries */ }); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) {
        return n.indexOf("judgekb-app-") === 0 && n !== APP_CACHE;
      }).map(function (n) { return caches.delete(n); }));
    }).then(function () {
      return self.registration.navigationPreload ? self.registration.navigationPreload.enable() : null;
    }).then(function () { return self.clients.claim(); })
  );
});

function timeout(promise, ms) {
  return new Promise(function (resolve, reject) {
    var timer = setTimeout(function () { reject(new Error("timeout")); }, ms);
    promise.then(function (r) { clearTimeout(timer); resolve(r); },
                 function (e) { clearTimeout(timer); reject(e); });
  });
}

function savedLang() {
  if (lang) { return Promise.resolve(lang); }
  return caches.open(PREFS_CACHE).then(function (c) { return c.match(LANG_KEY); })
    .then(function (r) { return r ? r.text() : null; });
}

function rememberLang(value) {
  if (!value || value === lang || !CONFIG.shells[value]) { return Promise.resolve(); }
  lang = value;
  return caches.open(PREFS_CACHE).then(function (c) { return c.put(LANG_KEY, new Response(value)); });
}

// The shell in the language the address asks for, else the last page's, else the phone's.
function offlinePage(request) {
  var asked = new URL(request.url).searchParams.get("lang");
  var pick = CONFIG.shells[asked] ? rememberLang(asked).then(function () { return asked; }) : savedLang();
  return pick.then(function (l) {
    var phone = (self.navigator.language || "en").slice(0, 2).toLowerCase();
    l = CONFIG.shells[l] ? l : CONFIG.shells[phone] ? phone : "en";
    return caches.match(CONFIG.shells[l]);
  }).then(function (r) {
    return r || new Response("judgekb: offline, and no offline copy on this device yet.",
      { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  });
}

function navigate(event) {
  var net = Promise.resolve(event.preloadResponse).then(function (r) { return r || fetch(event.request); });
  return timeout(net, NETWORK_TIMEOUT_MS).then(function (r) {
    event.waitUntil(rememberLang(r.headers.get("Content-Language")));
    return r;
  }, function () { return offlinePage(event.request); });
}

function fromCache(request, cacheName) {
  return caches.open(cacheName).then(function (cache) {
    return cache.match(request, { ignoreSearch: true });
  }).then(function (hit) { return hit || fetch(request); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate") {
    event.respondWith(navigate(event));
  } else if (url.pathname.indexOf("/offline/bundle/") === 0) {
    event.respondWith(fromCache(request, BUNDLE_CACHE));
  } else if (url.pathname.indexOf("/static/") === 0 || url.pathname === "/manifest.webmanifest") {
    event.respondWith(fromCache(request, APP_CACHE));
  }
  // Everything else (the API, /healthz) goes to the network as usual.
});
