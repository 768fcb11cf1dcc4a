// The play page's live refresh gives way to the page's own move or undo (hx-sync in
// templates/plays/play.html): otherwise it came back with the draft of before the tap and told
// the phone that entered the move that it came from another phone. But a change from another
// phone announced in that moment would then wait for the next one. So the page remembers the
// newest version its stream announced and, after each swap, fetches the play again if it shows
// an older one.
//
// The announcements are read from the stream itself, not from the events htmx hands to the page's
// elements: while a swap replaces #play-live, no element listens, and an announcement arriving
// then was lost (a faster server made that window the usual case for a change made just after a
// tap). A page still behind shortly after an announcement asks again.
//
// The play page's stream sends the parts that changed in the event itself (a "parts" event,
// games.views.live; issue 32: the other phones' screens showed a move only after a fetch each).
// They are what the page's fetch would get, made for a page that shows the play as every member
// sees it at the version before: put in place (static/js/play-parts.js) when the page shows
// exactly that — its version, and every part they were decided on (their fingerprints) — and
// has nothing of its own on the way: no request of its own for the play (its move, its undo, a
// refresh), no change waiting in the outbox, no move half-built on the phone (the server says
// whether it still stands, and if not, why it was cleared), and the browser does not say it is
// offline. Otherwise the page fetches, as for the plain event.
(function () {
  var announced = 0;

  function behind() {
    var main = document.getElementById("play-main");
    return main && announced > parseInt(main.dataset.version, 10);
  }

  function catchUp() {
    var live = document.getElementById("play-live");
    if (live && behind()) htmx.trigger(live, "sse:changed");
  }

  function heard(lastEventId) {
    var id = parseInt(lastEventId, 10);
    if (id > announced) announced = id;
  }

  document.addEventListener("htmx:sseMessage", function (event) {
    heard(event.detail && event.detail.lastEventId);
  });
  function busy() {
    // While the browser says it has no network the page says so (#connection, below), and what
    // an old connection still brings is not shown under that banner: it is fetched, as
    // before, once the network is back.
    if (navigator.onLine === false) return true;
    if (document.querySelector(".htmx-request")) return true; // a request of the page's
    if (window.playOutbox && window.playOutbox.waiting() > 0) return true;
    return Boolean(window.moveBuilder && window.moveBuilder.building());
  }

  function shows(pushed) {
    var main = document.getElementById("play-main");
    if (!main || !document.getElementById("play-live")) return false;
    if (parseInt(main.dataset.version, 10) !== pushed.since) return false;
    for (var name in pushed.expect) {
      var node = name === main.id ? main : document.getElementById(name);
      var shown = node && main.contains(node) ? node.dataset.h || "" : "";
      if (shown !== pushed.expect[name]) return false;
    }
    return true;
  }

  function pushed(message) {
    heard(message.lastEventId);
    // Shown already (the page's own move, answered before its event came): its fetch would
    // answer 204, so none is made.
    var main = document.getElementById("play-main");
    if (main && parseInt(message.lastEventId, 10) <= parseInt(main.dataset.version, 10)) return;
    var parts = null;
    try {
      parts = JSON.parse(message.data);
    } catch (error) {
      parts = null;
    }
    if (parts && window.playParts && !busy() && shows(parts) && window.playParts.put(parts.html)) {
      return;
    }
    var live = document.getElementById("play-live");
    if (live) htmx.trigger(live, "sse:changed");
    setTimeout(catchUp, 200);
  }

  document.addEventListener("htmx:sseOpen", function (event) {
    var source = event.detail && event.detail.source;
    if (!source) return;
    source.addEventListener("changed", function (message) {
      heard(message.lastEventId);
      // The usual refresh is on its way; this only catches an announcement nobody heard.
      setTimeout(catchUp, 200);
    });
    source.addEventListener("parts", pushed);
  });
  document.addEventListener("htmx:afterSettle", catchUp);

  // A refresh asked for before the page's own move or undo was answered can come back after
  // that answer, at the same version: it would wipe what the answer said (the referee's
  // refusal of a move the outbox sent when the network returned). The play has not changed
  // since, so it is not put in place.
  // The refresh is known by the element that asked (htmx fires this on the target, #play-main):
  // the element itself, whose id stays "#play-live" even when that very answer of the page's
  // own has replaced it on the page by then.
  var VERSION = /^\s*<[^>]*\sdata-version="(\d+)"/;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var main = document.getElementById("play-main");
    var asker = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!main || !asker || asker.id !== "play-live") return;
    var drawn = VERSION.exec(event.detail.serverResponse || "");
    if (drawn && parseInt(drawn[1], 10) <= parseInt(main.dataset.version, 10)) {
      event.detail.shouldSwap = false;
    }
  });

  // The log keeps its lines and a move's answer appends its own; should a refresh have drawn
  // that line already (two answers crossing), the later copy of a line replaces the earlier.
  document.addEventListener("htmx:afterSettle", function () {
    var seen = {};
    var lines = document.querySelectorAll("#move-log > li[data-seq]");
    for (var i = lines.length - 1; i >= 0; i--) {
      var seq = lines[i].getAttribute("data-seq");
      if (seen[seq]) lines[i].remove();
      else seen[seq] = true;
    }
  });
})();

// A phone that loses its network (issue 28). While the stream is down the extension reconnects
// with a backoff that grows to a minute, and whatever was announced meanwhile is never heard,
// nor fetched if the fetch failed: the page stayed behind for up to 100 s after the network
// came back. So the page says plainly that it has no connection (#connection, outside the
// swapped fragment) and, until its stream is open again, asks for the play itself: at once
// when the network returns, and every second meanwhile (an unchanged play answers 204, a few
// bytes), so that it shows the play as it stands within 2 s of the server being reached
// again. A refresh that failed is asked again.
//
// A stream the server refused (issue 29: too many live pages open from this account or link,
// 429, or on that server, 503) is closed for good by the browser, and the extension tries it
// again ever more slowly: meanwhile the page asks every few seconds, not every second, so
// that pages refused for being too many do not hammer the server instead. The table screen
// and the score sheet ask the same way (their refresh is marked data-live-refresh).
(function () {
  var DOWN_MS = 1000;
  var REFUSED_MS = 5000;
  var streamDown = false;
  var timer = null;
  var every = null;

  function refresher() {
    return document.getElementById("play-live") || document.querySelector("[data-live-refresh]");
  }

  function ask() {
    var live = refresher();
    if (live && navigator.onLine !== false) htmx.trigger(live, "sse:changed");
  }

  function say(offline) {
    var banner = document.getElementById("connection");
    if (banner) banner.hidden = !offline;
  }

  function keepAsking(ms) {
    if (timer !== null && every === ms) return;
    stopAsking();
    every = ms;
    timer = setInterval(ask, ms);
  }

  function stopAsking() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    every = null;
  }

  document.addEventListener("htmx:sseError", function (event) {
    streamDown = true;
    var source = event.detail && event.detail.source;
    // Closed, with the network up: the server answered, and not with a stream.
    var refused = source && source.readyState === 2 && navigator.onLine !== false;
    keepAsking(refused ? REFUSED_MS : DOWN_MS);
  });
  document.addEventListener("htmx:sseOpen", function () {
    if (!streamDown) return;
    streamDown = false;
    stopAsking();
    ask(); // what was announced while it was down
  });
  // A request of the page that never reached the server: the network is gone.
  document.addEventListener("htmx:sendError", function () {
    say(true);
    keepAsking(DOWN_MS);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.xhr && event.detail.xhr.status) {
      say(false);
      if (!streamDown) stopAsking();
    }
  });
  window.addEventListener("offline", function () {
    say(true);
  });
  window.addEventListener("online", function () {
    say(false);
    ask();
    keepAsking(DOWN_MS); // until a request or the stream says the server is reached again
  });
})();
