// The service worker's behaviour, run under Node with a fake `self`, `caches` and network.
//
// SERVICE_WORKER names the script as the server sends it (tests/views/test_pwa.py sets it);
// without it, the template (templates/pwa/sw.js) is filled in here with test values.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { beforeEach, describe, test } from "node:test";
import vm from "node:vm";

const ORIGIN = "https://uno.test";

const template = () => {
  const values = {
    CACHE: "uno-scorer-test",
    PAGES: "uno-pages-test",
    OFFLINE: "/offline",
    ASSETS: ["/static/css/app.css?v=1", "/static/js/app.js?v=2"],
    SIGN_IN_OUT: ["/login", "/logout"],
  };
  const text = readFileSync(new URL("../../templates/pwa/sw.js", import.meta.url), "utf8");
  return text.replace(/^const (\w+) = \{\{.*\}\};$/gm, (_, name) => {
    assert.ok(name in values, "no test value for the template's " + name);
    return "const " + name + " = " + JSON.stringify(values[name]) + ";";
  });
};

const SCRIPT = process.env.SERVICE_WORKER ? readFileSync(process.env.SERVICE_WORKER, "utf8") : template();
// What the script was filled in with, read back from it.
const constant = (name) => JSON.parse(SCRIPT.match(new RegExp("const " + name + " ?= ?([^;]+);"))[1]);
const CACHE = constant("CACHE");
const PAGES = constant("PAGES");
const OFFLINE = constant("OFFLINE");
const ASSETS = constant("ASSETS");
const SIGN_IN_OUT = constant("SIGN_IN_OUT");

/** A response as the browser hands it over: "basic" for our own origin. */
const served = (body, { status = 200, type = "text/html; charset=utf-8", redirected = false, account = null, language = null } = {}) => {
  const headers = {
    "Content-Type": type,
    ...(account ? { "X-Account": account } : {}),
    ...(language ? { "Content-Language": language } : {}),
  };
  const response = new Response(body, { status, headers });
  Object.defineProperty(response, "type", { value: "basic" });
  Object.defineProperty(response, "redirected", { value: redirected });
  return response;
};

const PAGE = '<!doctype html>\n<html lang="en"><p id="copy-mark" hidden>Last seen {seen} · updating…</p>';

class FakeCache {
  constructor() {
    this.entries = new Map();
  }
  keyOf(request) {
    return new URL(typeof request === "string" ? request : request.url, ORIGIN).href;
  }
  async put(request, response) {
    this.entries.set(this.keyOf(request), response);
  }
  async match(request) {
    const hit = this.entries.get(this.keyOf(request));
    return hit ? hit.clone() : undefined;
  }
  async delete(request) {
    return this.entries.delete(this.keyOf(request));
  }
  async keys() {
    return [...this.entries.keys()].map((url) => ({ url }));
  }
  async matchAll() {
    return [...this.entries.values()].map((response) => response.clone());
  }
  async addAll(urls) {
    for (const url of urls) await this.put(url, await world.fetch({ url: new URL(url, ORIGIN).href, method: "GET" }));
  }
}

let world;

/** A fresh worker: its listeners, its caches (those of a worker before it, when given), and a
 * network that answers from `world.server`. */
const startWorker = (stores = new Map()) => {
  const listeners = {};
  world = {
    listeners,
    stores,
    requests: [],
    skipped: false,
    claimed: false,
    preloadEnabled: false,
    online: true,
    // path -> response maker; anything else is a 404.
    server: {},
    fetch: async (request) => {
      const url = new URL(request.url, ORIGIN);
      world.requests.push(request.method + " " + url.pathname);
      if (!world.online) throw new TypeError("Failed to fetch");
      const answer = world.server[url.pathname + url.search] || world.server[url.pathname];
      return answer ? answer(request) : served("Not found", { status: 404 });
    },
  };
  const caches = {
    open: async (name) => {
      if (!stores.has(name)) stores.set(name, new FakeCache());
      return stores.get(name);
    },
    keys: async () => [...stores.keys()],
    delete: async (name) => stores.delete(name),
    match: async (request) => {
      for (const store of stores.values()) {
        const hit = await store.match(request);
        if (hit) return hit;
      }
      return undefined;
    },
  };
  const self = {
    location: new URL(ORIGIN + "/sw.js"),
    registration: { navigationPreload: { enable: async () => (world.preloadEnabled = true) } },
    clients: { claim: async () => (world.claimed = true) },
    skipWaiting: async () => (world.skipped = true),
    addEventListener: (type, listener) => (listeners[type] = listener),
  };
  const context = {
    self,
    caches,
    fetch: (request) => world.fetch(typeof request === "string" ? { url: new URL(request, ORIGIN).href, method: "GET" } : request),
    Response,
    Headers,
    URL,
    Promise,
    Date,
    Map,
    // The worker's own timers (it holds a copy's preload for 10 s) must not keep Node running
    // after the last test: a test still waiting on one fails as unfinished instead.
    setTimeout: (run, ms) => setTimeout(run, ms).unref(),
    console,
  };
  vm.runInNewContext(SCRIPT, context);
  return world;
};

/** Sends an event to the worker: what it answered (or undefined) once all its work is done. */
const dispatch = async (type, fields) => {
  const waits = [];
  let answer;
  const event = {
    preloadResponse: Promise.resolve(undefined),
    ...fields,
    respondWith: (response) => (answer = Promise.resolve(response)),
    waitUntil: (promise) => waits.push(promise),
  };
  world.listeners[type](event);
  const response = await answer;
  // The kept copies are written after the page is answered.
  await Promise.all(waits.map((wait) => Promise.race([wait, new Promise((done) => setTimeout(done, 50))])));
  return { answered: answer !== undefined, response };
};

const request = (path, { method = "GET", mode = "cors", headers = {} } = {}) => ({
  url: ORIGIN + path,
  method,
  mode,
  headers: new Headers(headers),
});

const visit = (path) => dispatch("fetch", { request: request(path, { mode: "navigate" }) });

const copyOf = async (path) => {
  const store = world.stores.get(PAGES);
  return store && store.match(ORIGIN + path);
};

beforeEach(() => {
  startWorker();
  world.server["/offline"] = () => served("<h1>The scorer can't be reached</h1>");
  for (const asset of ASSETS) world.server[asset] = () => served("asset " + asset, { type: "text/css" });
  world.server["/games/1"] = () => served(PAGE + "<p>fresh</p>");
});

describe("installing and activating", () => {
  test("installs the offline page and the assets of its release", async () => {
    await dispatch("install", {});
    const store = world.stores.get(CACHE);
    const kept = (await store.keys()).map(({ url }) => url.slice(ORIGIN.length));
    // Besides them, the language the phone reads: the offline page's, until a page says otherwise.
    assert.deepEqual(kept.filter((url) => !url.startsWith(OFFLINE + "?")).sort(), [OFFLINE, ...ASSETS].sort());
    assert.ok(kept.length === ASSETS.length + 2, kept);
    assert.equal(world.skipped, true);
  });

  test("drops other releases' caches, copies included, and takes over the open pages", async () => {
    for (const name of [CACHE, PAGES, "uno-scorer-old", "uno-pages-old", "someone-else"]) await (await caches()).open(name);
    await dispatch("activate", {});
    assert.deepEqual([...world.stores.keys()].sort(), [CACHE, PAGES, "someone-else"].sort());
    assert.equal(world.preloadEnabled, true);
    assert.equal(world.claimed, true);
  });
});

// The worker's own CacheStorage, for setting the scene.
const caches = async () => ({ open: async (name) => world.stores.get(name) || world.stores.set(name, new FakeCache()).get(name) });

describe("pages", () => {
  test("a game page comes from the server the first time, and is kept as the phone's copy", async () => {
    const { response } = await visit("/games/1");
    assert.match(await response.text(), /fresh/);
    const copy = await copyOf("/games/1");
    assert.ok(copy, "no copy kept");
    assert.ok(!Number.isNaN(Date.parse(copy.headers.get("X-Seen-At"))));
  });

  test("reopened, it is the copy at once, marked with the time it was seen", async () => {
    await visit("/games/1");
    world.server["/games/1"] = () => served(PAGE + "<p>newer</p>");
    const { response } = await visit("/games/1");
    const text = await response.text();
    assert.match(text, /fresh/);
    const seen = text.match(/<html data-copy-of="(\d\d:\d\d)" /);
    assert.ok(seen, text);
    assert.match(text, new RegExp("Last seen " + seen[1] + " · updating…"));
  });

  test("the fresh page the script asks for replaces the copy", async () => {
    await visit("/games/1");
    world.server["/games/1"] = () => served(PAGE + "<p>newer</p>");
    await visit("/games/1");
    const { response } = await dispatch("fetch", { request: request("/games/1", { headers: { "X-Fresh-Copy": "1" } }) });
    assert.match(await response.text(), /newer/);
    assert.match(await (await copyOf("/games/1")).text(), /newer/);
  });

  test("the copy of a game that is gone is dropped", async () => {
    await visit("/games/1");
    delete world.server["/games/1"];
    const { response } = await dispatch("fetch", { request: request("/games/1", { headers: { "X-Fresh-Copy": "1" } }) });
    assert.equal(response.status, 404);
    assert.equal(await copyOf("/games/1"), undefined);
  });

  test("soon after this phone changed something, the server's page comes first", async () => {
    await visit("/games/1");
    await dispatch("fetch", { request: request("/games/1/hands", { method: "POST" }) });
    world.server["/games/1"] = () => served(PAGE + "<p>after the change</p>");
    const { response } = await visit("/games/1");
    const text = await response.text();
    assert.match(text, /after the change/);
    assert.doesNotMatch(text, /data-copy-of/);
  });

  test("after a change with the server down, the copy still opens", async () => {
    await visit("/games/1");
    await dispatch("fetch", { request: request("/games/1/hands", { method: "POST" }) });
    world.online = false;
    const { response } = await visit("/games/1");
    assert.match(await response.text(), /data-copy-of=/);
  });

  test("a page for another session, or for none, drops the copies made for the one before", async () => {
    world.server["/"] = () => served(PAGE + "<p>mine</p>", { account: "ann-session" });
    world.server["/games/1"] = () => served(PAGE + "<p>game</p>", { account: "ann-session" });
    await visit("/");
    await visit("/games/1");
    assert.ok(await copyOf("/"), "the signed-in home page is kept");
    // The session ended elsewhere (a new password): the next page the server sends carries no mark.
    world.server["/games/1"] = () => served(PAGE + "<p>signed out</p>");
    await dispatch("fetch", { request: request("/games/1", { headers: { "X-Fresh-Copy": "1" } }) });
    assert.equal(await copyOf("/"), undefined, "a copy of the ended session's home page was kept");
    assert.match(await (await copyOf("/games/1")).text(), /signed out/);
  });

  test("pages of the same session keep each other's copies", async () => {
    world.server["/"] = () => served(PAGE + "<p>mine</p>", { account: "ann-session" });
    world.server["/games/1"] = () => served(PAGE + "<p>game</p>", { account: "ann-session" });
    await visit("/");
    await visit("/games/1");
    assert.ok(await copyOf("/"));
    assert.ok(await copyOf("/games/1"));
  });

  test("only a successful page of our own is kept", async () => {
    world.server["/"] = () => served(PAGE, { status: 500 });
    await visit("/");
    world.server["/games/1"] = () => served(PAGE, { redirected: true });
    await visit("/games/1");
    assert.equal(world.stores.get(PAGES) && (await world.stores.get(PAGES).keys()).length, 0);
  });

  test("the home page is kept too", async () => {
    world.server["/"] = () => served(PAGE + "<p>games</p>");
    await visit("/");
    assert.ok(await copyOf("/"));
  });

  test("other pages always come from the server, and are never kept", async () => {
    for (const path of ["/players", "/games/new", "/games/1/hands/1/edit", "/games/1/share"]) {
      world.server[path] = () => served("<p>" + path + "</p>");
      for (let visits = 0; visits < 2; visits++) {
        const { response } = await visit(path);
        assert.equal(await response.text(), "<p>" + path + "</p>");
      }
      assert.equal(await copyOf(path), undefined, path);
    }
  });

  test("a page without a copy and without a network is the offline page", async () => {
    await dispatch("install", {});
    world.online = false;
    for (const path of ["/games/2", "/players"]) {
      const { response } = await visit(path);
      assert.match(await response.text(), /can't be reached/, path);
    }
  });
});

describe("what never comes from a cache", () => {
  test("fragments, polls, saves and the API go to the server untouched", async () => {
    await visit("/games/1");
    for (const [path, method] of [
      ["/games/1/live", "GET"],
      ["/games/1", "GET"],
      ["/games/1/hands", "POST"],
      ["/games/1/hands/2/sync", "POST"],
      ["/api/v1/games", "GET"],
      ["/static/js/app.js", "GET"],
    ]) {
      const { answered } = await dispatch("fetch", { request: request(path, { method }) });
      assert.equal(answered, false, method + " " + path);
    }
  });

  test("a versioned file comes from the cache once installed", async () => {
    await dispatch("install", {});
    world.online = false;
    const { response } = await dispatch("fetch", { request: request(ASSETS[0]) });
    assert.equal(await response.text(), "asset " + ASSETS[0]);
  });

  test("another origin is left alone", async () => {
    const { answered } = await dispatch("fetch", { request: { ...request("/"), url: "https://elsewhere.test/" } });
    assert.equal(answered, false);
  });
});

describe("sign-in and sign-out", () => {
  for (const path of SIGN_IN_OUT) {
    test(path + " drops the copies before it is sent", async () => {
      await visit("/games/1");
      let copiesWhenSent;
      world.server[path] = async () => {
        copiesWhenSent = world.stores.has(PAGES) ? (await world.stores.get(PAGES).keys()).length : 0;
        return served("", { status: 302 });
      };
      await dispatch("fetch", { request: request(path, { method: "POST" }) });
      assert.equal(copiesWhenSent, 0);
    });
  }
});

describe("the page's own updates of its copy", () => {
  test("a page that has a copy replaces it with what it now shows", async () => {
    await visit("/games/1");
    await dispatch("message", { data: { path: "/games/1", html: "<p>now</p>" } });
    assert.equal(await (await copyOf("/games/1")).text(), "<p>now</p>");
  });

  test("no copy is made from a message, nor of a page that is not copied", async () => {
    await dispatch("message", { data: { path: "/games/3", html: "<p>now</p>" } });
    await dispatch("message", { data: { path: "/players", html: "<p>now</p>" } });
    await dispatch("message", { data: { path: "/games/1" } });
    assert.equal(await copyOf("/games/3"), undefined);
    assert.equal(await copyOf("/players"), undefined);
  });
});

describe("languages", () => {
  const GERMAN_OFFLINE = "<h1>Der Scorer ist nicht erreichbar</h1>";
  // The server as it answers a phone that reads `language`: every page, and the offline page too.
  const speak = (language, text) => {
    world.server["/offline"] = () => served(language === "de" ? GERMAN_OFFLINE : "<h1>The scorer can't be reached</h1>", { language });
    for (const path of ["/", "/games/1", "/players"]) {
      world.server[path] = () => served('<!doctype html>\n<html lang="' + language + '"><p>' + text + " " + path + "</p>", { language });
    }
  };

  beforeEach(async () => {
    speak("en", "English");
    await dispatch("install", {});
    await visit("/games/1");
    await visit("/");
    assert.ok(await copyOf("/games/1"));
  });

  test("after a switch, a copy in the old language is never shown, offline either", async () => {
    speak("de", "Deutsch");
    // The page the switch leads back to is another page, which is not copied.
    const { response } = await visit("/players");
    assert.match(await response.text(), /Deutsch/);
    world.online = false;
    for (const path of ["/games/1", "/"]) {
      const reopened = await (await visit(path)).response.text();
      assert.doesNotMatch(reopened, /English/, path);
      // The offline page, fetched again in the language the phone now reads.
      assert.equal(reopened, GERMAN_OFFLINE, path);
    }
  });

  test("a worker started again remembers the language the phone reads", async () => {
    speak("de", "Deutsch");
    await visit("/players");
    const stores = world.stores;
    startWorker(stores);
    world.online = false;
    // The copies kept by the worker before are still there, in English.
    assert.match(await (await stores.get(PAGES).match(ORIGIN + "/games/1")).text(), /English/);
    const reopened = await (await visit("/games/1")).response.text();
    assert.doesNotMatch(reopened, /English/);
  });

  test("online, the page in the new language replaces the old language's copies", async () => {
    speak("de", "Deutsch");
    await visit("/players");
    const { response } = await visit("/games/1");
    assert.match(await response.text(), /Deutsch/);
    assert.match(await (await copyOf("/games/1")).text(), /Deutsch/);
    assert.equal(await copyOf("/"), undefined);
    // The new copy is shown again when the phone reopens the game.
    world.online = false;
    assert.match(await (await visit("/games/1")).response.text(), /data-copy-of=.*Deutsch/s);
  });

  test("a copy in the language the phone reads is shown as before", async () => {
    await visit("/players");
    world.online = false;
    assert.match(await (await visit("/games/1")).response.text(), /data-copy-of=.*English/s);
  });

  test("a page in another language than its copy does not replace it", async () => {
    speak("de", "Deutsch");
    await visit("/players");
    await visit("/games/1");
    await dispatch("message", { data: { path: "/games/1", html: '<!doctype html>\n<html lang="en"><p>mixed</p>' } });
    assert.match(await (await copyOf("/games/1")).text(), /Deutsch/);
  });
});
